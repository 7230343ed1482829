/** Tests run through n8n-core's real engine against the sandbox on 127.0.0.1. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }],
	},
	testTimeout: 60_000,
	// Three on two cores: a third of the suite's time is waiting (retry backoffs, Retry-After, timeouts,
	// paced requests), which a third worker fills; the tests assert behaviour, not timing (issue 40).
	maxWorkers: 3,
};
