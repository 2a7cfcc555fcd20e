#!/usr/bin/env node
// The `assay` command. A development checkout (tsx installed, sources present) runs the TypeScript sources through
// tsx's CommonJS hook, so edits need no rebuild; a production install (`npm ci --omit=dev`, no tsx) runs the
// compiled dist/ that `npm run build` wrote.
const fs = require('node:fs');
const path = require('node:path');

const sources = path.join(__dirname, '..', 'cli', 'main.ts');
const built = path.join(__dirname, '..', 'dist', 'cli', 'main.js');

function hasTsx() {
  try {
    require.resolve('tsx/cjs');
    return true;
  } catch {
    return false;
  }
}

// NODE_ENV=production runs a build wherever there is one, even in a checkout that has tsx.
const preferBuilt = process.env.NODE_ENV === 'production' && fs.existsSync(built);

if (!preferBuilt && fs.existsSync(sources) && hasTsx()) {
  require('tsx/cjs');
  require(sources);
} else if (fs.existsSync(built)) {
  require(built);
} else {
  console.error('assay: neither the TypeScript sources with tsx nor a build in dist/ (run `npm run build`)');
  process.exit(2);
}
