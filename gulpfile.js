/**
 * Builds dist/ after `tsc --noEmit` has type-checked the sources.
 *  - bundle: each node and credential entry file bundled by esbuild, and the per-process state
 *    alone (bundles.js says how and why).
 *  - copy: icons and codex files, which n8n reads next to the entry files.
 */
const fs = require('fs');
const { src, dest, parallel, series } = require('gulp');
const { buildBundles } = require('./bundles');

async function clean() {
	await fs.promises.rm('dist', { recursive: true, force: true });
}

async function bundle() {
	await buildBundles(__dirname, 'dist');
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
