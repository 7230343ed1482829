// n8n's default config (the one `n8n-node lint` insists on at the root) for the development
// tooling in test/, sandbox/, bench/, e2e/ and scripts/, which never runs inside n8n: the rules
// about code n8n loads (no timers, process, filesystem, console, hard-coded secrets; n8n errors;
// usable as a tool) are off, the TypeScript and import rules stay, with three allowances for test
// code: `any` for untyped JSON bodies, rest siblings to drop keys, and `core` in the sandbox's
// getters that need the outer `this`. Each of those folders has an
// eslint.config.mjs re-exporting this file; ESLint picks it for their files because `npm run lint`
// sets ESLINT_FLAGS=unstable_config_lookup_from_file (the default from ESLint 10 on).
import { config } from '@n8n/node-cli/eslint';

export default [
	...config,
	{
		files: ['**/*.ts'],
		rules: {
			'@n8n/community-nodes/no-restricted-globals': 'off',
			'@n8n/community-nodes/no-restricted-imports': 'off',
			'@n8n/community-nodes/require-node-api-error': 'off',
			'@n8n/community-nodes/no-hardcoded-secrets': 'off',
			'@n8n/community-nodes/no-dangerous-functions': 'off',
			'@n8n/community-nodes/node-usable-as-tool': 'off',
			'no-console': 'off',
			'@typescript-eslint/no-explicit-any': 'off',
			'@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
			'@typescript-eslint/no-this-alias': ['error', { allowedNames: ['core'] }],
		},
	},
];
