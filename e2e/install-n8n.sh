#!/usr/bin/env bash
# Installs the pinned n8n of a runtime folder (default e2e/n8n-runtime/, the suite's n8n; the
# others, e2e/n8n-runtime-<line>/, are the older lines `npm run test:compat` runs) into a cache
# folder outside the repo and prints that folder on stdout (progress goes to stderr). A second run
# with the same manifest, lockfile and Node reuses the folder in well under a second.
#
#   N8N_DIR="$(e2e/install-n8n.sh)"
#   N8N_DIR="$(e2e/install-n8n.sh e2e/n8n-runtime-1.123)"
#
# Environment:
#   N8N_E2E_CACHE   cache root (default: ${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-marketplace-merchant)
#   N8N_E2E_NODE    Node >= 24 binary (default: the project's node_modules/.bin/node, from the `node`
#                   devDependency); it runs npm's scripts during the install and n8n afterwards.
#   N8N_E2E_FORCE=1 reinstall even when the marker matches.
set -euo pipefail

readonly MARKER_NAME='.e2e-install-complete'
# Bump when the install steps change, so that old caches are rebuilt.
readonly INSTALL_RECIPE=1

log() { printf '[install-n8n] %s\n' "$*" >&2; }
fail() { log "error: $*"; exit 1; }

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_dir="$(dirname "$script_dir")"
runtime_dir="$(cd "${1:-$script_dir/n8n-runtime}" && pwd)"
[[ -f "$runtime_dir/package.json" && -f "$runtime_dir/package-lock.json" ]] || fail "$runtime_dir has no package.json and package-lock.json"

node_bin="${N8N_E2E_NODE:-$repo_dir/node_modules/.bin/node}"
[[ -x "$node_bin" ]] || fail "no Node at $node_bin: run 'npm install' in $repo_dir first (it installs Node 24 as the 'node' devDependency)"
node_bin="$(readlink -f "$node_bin")"
node_version="$("$node_bin" --version)"
[[ "${node_version#v}" =~ ^([0-9]+)\. ]] && (( BASH_REMATCH[1] >= 24 )) || fail "the suite runs every n8n on Node >= 24 (n8n 1.123 and 2.0 accept 20.19 to 24.x, 2.41 needs 24), $node_bin is $node_version"
# npm and every script it runs resolve `node` through PATH: make that the Node 24 binary.
export PATH="$(dirname "$node_bin"):$PATH"

n8n_version="$(node -p "require('$runtime_dir/package.json').dependencies.n8n")"
cache_root="${N8N_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-marketplace-merchant}"
install_dir="$cache_root/n8n-$n8n_version"
fingerprint="$(cat "$runtime_dir/package.json" "$runtime_dir/package-lock.json" | sha256sum | cut -d' ' -f1) node=$node_version recipe=$INSTALL_RECIPE"

reuse_if_installed() {
	if [[ "${N8N_E2E_FORCE:-}" != 1 && -f "$install_dir/$MARKER_NAME" && "$(cat "$install_dir/$MARKER_NAME")" == "$fingerprint" ]]; then
		log "reusing n8n $n8n_version in $install_dir"
		printf '%s\n' "$install_dir"
		exit 0
	fi
}
reuse_if_installed

mkdir -p "$cache_root"
# Two suites starting at once must not build the same version into the same folder: the second
# one waits and then reuses what the first one installed. Other versions install side by side.
exec 9>"$cache_root/.install-$n8n_version.lock"
flock 9
reuse_if_installed

# Holding the lock, no other install of this version is running: staging folders left by a
# killed run can go.
rm -rf "$cache_root"/.n8n-"$n8n_version".staging.*

started_at=$SECONDS
staging_dir="$(mktemp -d "$cache_root/.n8n-$n8n_version.staging.XXXXXX")"
headers_tmp=''
trap 'rm -rf "$staging_dir" ${headers_tmp:+"$headers_tmp"}' EXIT

log "installing n8n $n8n_version with Node $node_version into $install_dir"
cp "$runtime_dir/package.json" "$runtime_dir/package-lock.json" "$staging_dir/"
# --ignore-scripts: several dependencies download binaries in their install scripts, which fails
# without internet; only sqlite3 needs a native build (below). isolated-vm loads its bundled
# Node 24 prebuild at run time through node-gyp-build.
(cd "$staging_dir" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error --logs-dir="$staging_dir/.npm-logs") >&2
log "npm install done after $((SECONDS - started_at)) s"

# sqlite3 has no prebuild that can be fetched here: build it from source against the headers of
# the very Node that runs n8n. The `node-<platform>-<arch>` npm package (the binary behind the
# `node` devDependency) ships them under include/node.
node_platform="$(node -p "process.platform + '-' + process.arch")"
headers_dir="$cache_root/node-headers-$node_version-$node_platform"
# Installs of other versions may want the same headers at the same time.
exec 8>"$cache_root/.headers.lock"
flock 8
rm -rf "$cache_root"/.node-headers.*
if [[ ! -f "$headers_dir/include/node/node_api.h" ]]; then
	log "fetching Node $node_version headers (npm package node-$node_platform)"
	headers_tmp="$(mktemp -d "$cache_root/.node-headers.XXXXXX")"
	(cd "$headers_tmp" && npm pack "node-$node_platform@${node_version#v}" --silent --logs-dir="$headers_tmp/.npm-logs" >/dev/null)
	tar -xzf "$headers_tmp"/node-*.tgz -C "$headers_tmp" package/include
	rm -rf "$headers_dir"
	mv "$headers_tmp/package" "$headers_dir"
	rm -rf "$headers_tmp"
fi
flock -u 8

npm_cli="$(readlink -f "$(command -v npm)")"
node_gyp="$(dirname "$npm_cli")/../node_modules/node-gyp/bin/node-gyp.js"
[[ -f "$node_gyp" ]] || fail "node-gyp not found next to npm ($node_gyp)"
log "building sqlite3 from source"
# --nodedir overrides the user npmrc's nodedir (which points at the machine's Node 20 headers).
sqlite_build_log="$staging_dir/.sqlite3-build.log"
if ! (cd "$staging_dir/node_modules/sqlite3" && node "$node_gyp" rebuild --release --nodedir="$headers_dir" -j "$(nproc)") >"$sqlite_build_log" 2>&1; then
	tail -n 40 "$sqlite_build_log" >&2
	fail 'sqlite3 build failed (needs python3, make and a C++ compiler)'
fi
# Only build/Release/node_sqlite3.node is loaded; the object files are ~50 MB.
rm -rf "$staging_dir/node_modules/sqlite3/build/Release/obj.target" "$staging_dir/node_modules/sqlite3/build/Release/.deps" "$staging_dir/node_modules/sqlite3/build/deps"
log "sqlite3 built after $((SECONDS - started_at)) s"

# isolated-vm (the expression engine's sandbox) arrived after n8n 2.0.
(cd "$staging_dir" && node -e "
	const sqlite3 = require('sqlite3');
	new sqlite3.Database(':memory:').close();
	let ivm;
	try { ivm = require('isolated-vm'); } catch (error) { if (error.code !== 'MODULE_NOT_FOUND') throw error; }
	if (ivm) {
		const isolate = new ivm.Isolate({ memoryLimit: 16 });
		if (isolate.compileScriptSync('6 * 7').runSync(isolate.createContextSync()) !== 42) throw new Error('isolated-vm');
	}
") || fail 'native modules do not load'
installed_version="$(node "$staging_dir/node_modules/n8n/bin/n8n" --version)"
[[ "$installed_version" == "$n8n_version" ]] || fail "n8n --version says '$installed_version', expected $n8n_version"

rm -rf "$staging_dir/.npm-logs" "$sqlite_build_log"
printf '%s' "$fingerprint" > "$staging_dir/$MARKER_NAME"
rm -rf "$install_dir"
mv "$staging_dir" "$install_dir"
trap - EXIT
log "n8n $n8n_version installed in $((SECONDS - started_at)) s ($(du -sh "$install_dir" | cut -f1))"
printf '%s\n' "$install_dir"
