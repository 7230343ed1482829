#!/usr/bin/env bash
# Regenerates docs/screenshots/*.png (see scripts/screenshot.ts). Installs Debian's chromium first
# when it is missing (needs root), then runs the capture on the project's Node 24.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v "${CHROMIUM:-chromium}" >/dev/null 2>&1; then
	echo "installing chromium (apt-get)" >&2
	apt-get update
	DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
fi

exec npm exec -- tsx scripts/screenshot.ts
