// Preloaded with `node --require` by test/integration/cli-lazy-loading.test.ts: when the process exits, writes the
// path of every CommonJS module it loaded to the file MODULE_RECORD names, one a line.
const fs = require('node:fs');

process.on('exit', () => {
  fs.writeFileSync(process.env.MODULE_RECORD, Object.keys(require.cache).join('\n'));
});
