/**
 * How dist/ bundles the node, the trigger and the credential (gulpfile.js): n8n community packages
 * may not have runtime dependencies, so each node and credential entry file is bundled with esbuild
 * from its TypeScript source, inlining what it imports (fast-xml-parser, the shared transport).
 * n8n-workflow and luxon stay external: n8n provides them (it puts its own node_modules on
 * NODE_PATH before loading community packages, so both resolve to n8n's copies in 1.123, 2.0 and 2.41;
 * docs/architecture.md, "Dates"). Each bundle holds its own copy of every module but
 * one: nodes/MarketplaceMerchant/transport/state.ts, the state that must be one per n8n process, is
 * built as a file of its own, which every bundle requires by its relative path (Node loads a file
 * once per process). test/transport/state.test.ts builds the same bundles into a folder of its own
 * to run them together in one process, as n8n does.
 */
const fs = require('fs');
const path = require('path');
const esbuild = require('esbuild');

const STATE_SOURCE = path.join('nodes', 'MarketplaceMerchant', 'transport', 'state.ts');

function filesEndingWith(dir, suffix) {
	return fs
		.readdirSync(dir, { recursive: true })
		.map((file) => path.join(dir, String(file)))
		.filter((file) => file.endsWith(suffix));
}

const COMMON = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', external: ['n8n-workflow', 'luxon'], logLevel: 'warning' };

/** Sends the imports of state.ts to its one built file, by a path relative to the bundle that imports it. */
function sharedState(root, outdir, outfile) {
	const stateSource = path.join(root, STATE_SOURCE);
	const stateOut = path.join(outdir, STATE_SOURCE.replace(/\.ts$/, '.js'));
	return {
		name: 'shared-state',
		setup(build) {
			build.onResolve({ filter: /(^|\/)state$/ }, (args) => {
				if (path.resolve(args.resolveDir, `${args.path}.ts`) !== stateSource) return undefined;
				const relative = path.relative(path.dirname(outfile), stateOut).split(path.sep).join('/');
				return { path: relative.startsWith('.') ? relative : `./${relative}`, external: true };
			});
		},
	};
}

/** Builds the bundles of the project at `root` under `outdir`: one per entry file, and state.ts alone. */
async function buildBundles(root, outdir, options = {}) {
	const entries = [...filesEndingWith(path.join(root, 'nodes'), '.node.ts'), ...filesEndingWith(path.join(root, 'credentials'), '.credentials.ts')];
	const outfileOf = (entry) => path.join(outdir, path.relative(root, entry).replace(/\.ts$/, '.js'));
	await Promise.all([
		esbuild.build({ ...COMMON, ...options, entryPoints: [path.join(root, STATE_SOURCE)], outfile: outfileOf(path.join(root, STATE_SOURCE)) }),
		...entries.map((entry) =>
			esbuild.build({ ...COMMON, ...options, entryPoints: [entry], outfile: outfileOf(entry), plugins: [sharedState(root, outdir, outfileOf(entry))] }),
		),
	]);
}

module.exports = { buildBundles };
