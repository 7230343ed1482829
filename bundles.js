/**
 * How dist/ bundles the node, the trigger and the credential (gulpfile.js): n8n community packages
 * may not have runtime dependencies, so each node and credential entry file is bundled with esbuild
 * from its TypeScript source, inlining what it imports (fast-xml-parser, the shared transport).
 * n8n-workflow stays external: n8n provides it. Each bundle holds its own copy of every module, so
 * process-wide state lives in transport/state.ts. test/transport/state.test.ts builds the same
 * bundles into a folder of its own to run them together in one process, as n8n does.
 */
const fs = require('fs');
const path = require('path');

function filesEndingWith(dir, suffix) {
	return fs
		.readdirSync(dir, { recursive: true })
		.map((file) => path.join(dir, String(file)))
		.filter((file) => file.endsWith(suffix));
}

/** esbuild's options for the bundles of the project at `root`, written under `outdir`. */
function bundleOptions(root, outdir) {
	const entries = (dir, suffix) => filesEndingWith(path.join(root, dir), suffix);
	return {
		entryPoints: [...entries('nodes', '.node.ts'), ...entries('credentials', '.credentials.ts')],
		outdir,
		outbase: root,
		bundle: true,
		platform: 'node',
		target: 'node20',
		format: 'cjs',
		external: ['n8n-workflow'],
		logLevel: 'warning',
	};
}

module.exports = { bundleOptions };
