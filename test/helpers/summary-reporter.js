'use strict';
// Mocha's spec reporter plus one plain closing line, "N passed, N failed, N skipped", that CI systems read.
const { reporters, Runner } = require('mocha');

class SpecWithSummary extends reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Runner.constants.EVENT_RUN_END, () => {
      const { passes, failures, pending } = this.stats;
      process.stdout.write(`${passes} passed, ${failures} failed, ${pending} skipped\n`);
    });
  }
}

module.exports = SpecWithSummary;
