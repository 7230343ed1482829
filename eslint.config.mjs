// Lint with the rules n8n's verification scanner applies to community packages:
// eslint-plugin-n8n-nodes-base (community/credentials/nodes sets) and
// @n8n/eslint-plugin-community-nodes (recommended). No rule is turned off.
import tsParser from '@typescript-eslint/parser';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import { configs as communityNodesConfigs } from '@n8n/eslint-plugin-community-nodes';

const typescript = { parser: tsParser, parserOptions: { sourceType: 'module' } };
// package.json is parsed by the TypeScript parser (as n8n's own config does) so that the
// package rules see it as an object expression.
const packageJson = { parser: tsParser, parserOptions: { extraFileExtensions: ['.json'] } };

export default [
	{ ignores: ['dist/**', 'node_modules/**', 'test/**', 'sandbox/**', 'bench/**', 'scripts/**', 'e2e/**', '*.js', '*.mjs'] },
	{
		files: ['package.json'],
		languageOptions: packageJson,
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: { ...n8nNodesBase.configs.community.rules },
	},
	{
		files: ['credentials/**/*.ts'],
		languageOptions: typescript,
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: { ...n8nNodesBase.configs.credentials.rules },
	},
	{
		files: ['nodes/**/*.ts'],
		languageOptions: typescript,
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: { ...n8nNodesBase.configs.nodes.rules },
	},
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts', 'package.json'],
		languageOptions: typescript,
		...communityNodesConfigs.recommended,
	},
	{
		files: ['package.json'],
		languageOptions: packageJson,
	},
];
