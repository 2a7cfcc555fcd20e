import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { HTTP_ERROR_CODES, HttpError } from '../../api/http-error';

// Every backticked code in the `code` column of the "Error codes" table of docs/api.md (moved from the README).
function readmeErrorCodes(): Set<string> {
  const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'api.md'), 'utf8');
  const section = readme.split(/^### Error codes$/m)[1]?.split(/^#{2,3} /m)[0];
  assert.ok(section, 'the README has a "### Error codes" section');
  const codes = new Set<string>();
  for (const line of section.split('\n')) {
    const cells = line.split('|');
    if (!/^\s*\d/.test(cells[1] ?? '')) continue;
    const cell = cells[2] ?? '';
    for (const match of cell.matchAll(/`(\w+)`/g)) codes.add(match[1]);
  }
  return codes;
}

describe('HTTP error codes', () => {
  it('are the codes the README table lists, no more and no fewer', () => {
    assert.deepEqual([...readmeErrorCodes()].sort(), [...HTTP_ERROR_CODES].sort());
  });

  it('refuse a code outside the union at compile time', () => {
    // @ts-expect-error a misspelt code is not an HttpErrorCode; `tsc` fails if this line ever compiles.
    const typo = new HttpError(404, 'not_fuond', 'x');
    assert.equal((HTTP_ERROR_CODES as readonly string[]).includes(typo.code), false);
  });
});
