/**
 * Builds dist/ after `tsc --noEmit` has type-checked the sources.
 *  - bundle: n8n community packages may not have runtime dependencies, so each node and
 *    credential entry file is bundled with esbuild from its TypeScript source, inlining what it
 *    imports (fast-xml-parser, the shared transport). n8n-workflow stays external: n8n provides it.
 *  - copy: icons and codex files, which n8n reads next to the entry files.
 */
const fs = require('fs');
const path = require('path');
const { src, dest, parallel, series } = require('gulp');
const esbuild = require('esbuild');

function filesEndingWith(dir, suffix) {
	return fs
		.readdirSync(dir, { recursive: true })
		.map((file) => path.join(dir, String(file)))
		.filter((file) => file.endsWith(suffix));
}

async function clean() {
	await fs.promises.rm('dist', { recursive: true, force: true });
}

async function bundle() {
	await esbuild.build({
		entryPoints: [...filesEndingWith('nodes', '.node.ts'), ...filesEndingWith('credentials', '.credentials.ts')],
		outdir: 'dist',
		outbase: '.',
		bundle: true,
		platform: 'node',
		target: 'node20',
		format: 'cjs',
		external: ['n8n-workflow'],
		logLevel: 'warning',
	});
}

function copyIcons() {
	return src(['nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}', 'icons/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

function copyCodex() {
	return src('nodes/**/*.node.json', { base: '.' }).pipe(dest('dist'));
}

exports.build = series(clean, bundle, parallel(copyIcons, copyCodex));
exports.default = exports.build;
