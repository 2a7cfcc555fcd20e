import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

// A newcomer reads the title first, then the two commands that work on a fresh clone, and nothing else before them.
describe('the README opening', () => {
  const lines = fs.readFileSync(path.join(__dirname, '../../README.md'), 'utf8').split('\n');

  it('opens with the title, then exactly the two commands npm start and npm test in one block', () => {
    assert.equal(lines[0], '# Assay');
    assert.deepEqual(lines.slice(1, 6), ['', '```', 'npm start', 'npm test', '```']);
  });

  it('names the variables that move the tour off its default ports', () => {
    const tour = lines.slice(lines.indexOf('## A five-minute tour')).join('\n');
    assert.match(tour, /ASSAY_PORT/);
    assert.match(tour, /ASSAY_GATEWAY_PORT/);
  });
});
