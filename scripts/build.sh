#!/usr/bin/env bash
# `npm run build`: compiles the TypeScript to dist/ (tsconfig.build.json), copies the files the code reads at run
# time (the builder page, the MCP catalog) beside it, and prebuilds the workflow bundle to dist/workflow-bundle.js
# so a production worker starts without webpack. Production runs `node dist/cli/main.js` (bin/assay.js picks it).
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf dist
tsc -p tsconfig.build.json
cp -r api/public dist/api/public
cp -r catalog dist/catalog
node dist/worker/write-workflow-bundle.js
