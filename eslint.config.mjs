// n8n's default config (@n8n/node-cli, what `n8n-node lint` runs) for the whole repository, and for
// the development tooling in test/, sandbox/, bench/, e2e/ and scripts/, which never runs inside
// n8n, its own rules: those about code n8n loads (no timers, process, filesystem, console,
// hard-coded secrets; n8n errors; usable as a tool) off, the TypeScript and import rules kept, with
// three allowances for test code: `any` for untyped JSON bodies, rest siblings to drop keys, and
// `core` in the sandbox's getters that need the outer `this`. nodes/ and credentials/ get the
// default config unchanged. A config other than the default needs package.json's `n8n.strict`
// off: docs/architecture.md (Toolchain) says why this is the choice.
import { config } from '@n8n/node-cli/eslint';

export default [
	...config,
	{
		files: ['test/**/*.ts', 'sandbox/**/*.ts', 'bench/**/*.ts', 'e2e/**/*.ts', 'scripts/**/*.ts'],
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
