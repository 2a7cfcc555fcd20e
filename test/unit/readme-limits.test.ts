import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { LIMITS } from '../../domain/limits';

// The rows of the "Limits" table of docs/api.md (moved from the README) whose first cell is a key of LIMITS, with the first number of the value.
function readmeLimits(): Map<string, number> {
  const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'api.md'), 'utf8');
  const section = readme.split(/^### Limits$/m)[1]?.split(/^#{2,3} /m)[0];
  assert.ok(section, 'the README has a "### Limits" section');
  const rows = new Map<string, number>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const key = /^`(\w+)`$/.exec(cells[1] ?? '')?.[1];
    if (!key) continue;
    assert.ok(!rows.has(key), `${key} is listed once`);
    rows.set(key, Number(/^[\d,]+/.exec(cells[2] ?? '')?.[0].replaceAll(',', '')));
  }
  return rows;
}

describe('the README limits table', () => {
  it('lists every limit of domain/limits.ts with its value, and no other key', () => {
    assert.deepEqual(Object.fromEntries(readmeLimits()), { ...LIMITS });
  });
});
