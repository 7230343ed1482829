// The configuration n8n's community package scanner lints with (@n8n/scan-community-package,
// `buildScanConfig`): @n8n/eslint-plugin-community-nodes' recommended rules on every file, no
// console, and eslint-plugin-n8n-nodes-base's community/credentials/nodes rulesets with the same
// four exceptions the scanner and `n8n-node lint` make (each explained below). The scanner lints
// the sources and the published dist/*.js, so `npm run lint` runs it on the sources (after
// `n8n-node lint`, whose config must stay eslint.config.mjs unchanged in strict mode) and
// `npm run lint:dist` on the build output. The bundle is plain JS, which n8n's default config
// (TypeScript files only, dist ignored) does not lint.
import tsParser from '@typescript-eslint/parser';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';

export default [
	{
		ignores: ['node_modules/**', 'test/**', 'sandbox/**', 'bench/**', 'scripts/**', 'e2e/**', 'docs/**', '*.js', '*.mjs', 'package-lock.json'],
	},
	n8nCommunityNodesPlugin.configs.recommended,
	{ rules: { 'no-console': 'error' } },
	{ plugins: { 'n8n-nodes-base': n8nNodesBase } },
	{
		files: ['package.json'],
		rules: { ...n8nNodesBase.configs.community.rules },
	},
	{
		files: ['credentials/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// Community credentials link to their own docs (a URL), not to an n8n docs slug.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			// Superseded by @n8n/community-nodes/credential-password-field, which is more accurate.
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// Inputs and outputs use the NodeConnectionTypes enum, which @n8n/community-nodes requires.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			// The API has real maximums (page sizes), so maxValue is valid.
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	{ files: ['**/*.json'], languageOptions: { parser: tsParser } },
	{ files: ['**/*.ts'], languageOptions: { parser: tsParser } },
];
