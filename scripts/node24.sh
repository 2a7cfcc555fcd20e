#!/usr/bin/env bash
# Runs a command under the Node 24 that scripts/provision.sh installed in .tools/node (when this machine's node is
# older), by putting it first on PATH: `node`, `npm` and every node_modules/.bin tool then run under it.
set -euo pipefail
TOOLS="$(cd "$(dirname "$0")/.." && pwd)/.tools"
if [ -x "$TOOLS/node/bin/node" ]; then export PATH="$TOOLS/node/bin:$PATH"; fi
exec "$@"
