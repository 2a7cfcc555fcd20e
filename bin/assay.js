#!/usr/bin/env node
// The `assay` command: TypeScript sources run through tsx's CommonJS hook, so there is no build step.
require('tsx/cjs');
require('../cli/main.ts');
