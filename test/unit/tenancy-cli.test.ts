import assert from 'node:assert/strict';
import { InvalidArgumentError } from 'commander';
import { cellText, renderList, renderRecord } from '../../cli/command-output';
import { memberId } from '../../cli/member.command';
import { days, refuseOptions, uuid } from '../../cli/program-kit';
import { workspaceDeleteCommand } from '../../cli/workspace.command';
import { createApiClient } from '../../cli/api-client';

const ID = '123e4567-e89b-12d3-a456-426614174000';
// A client of a closed port: a test that passes with it shows the command decided without calling the API.
const offline = createApiClient('http://127.0.0.1:9', 'x', { attempts: 1 });

describe('tenancy commands: options and output', () => {
  it('takes expiry as whole days from 1', () => {
    assert.equal(days('1'), 1);
    assert.equal(days('365'), 365);
    for (const bad of ['0', '-1', '1.5', '7d', '', ' 7', '01', '1e3', '9999999'])
      assert.throws(() => days(bad), InvalidArgumentError, bad);
  });

  it('takes a workspace id only as a UUID', () => {
    assert.equal(uuid(ID), ID);
    for (const bad of ['default', `${ID}x`, ID.replace(/-/g, '')]) assert.throws(() => uuid(bad), InvalidArgumentError);
  });

  it('names each database-only option given without --email, as flags', () => {
    refuseOptions({ name: 'cli', json: true }, ['role', 'operator'], 'only with --email');
    assert.throws(
      () =>
        refuseOptions({ role: 'admin', operator: true, expiresInDays: 3 }, ['role', 'operator', 'expiresInDays'], 'x'),
      { message: '--role, --operator, --expires-in-days x' },
    );
  });

  it('refuses to delete a workspace without --yes, before calling the API', async () => {
    await assert.rejects(workspaceDeleteCommand(ID, { token: 'x', url: 'http://127.0.0.1:9' }), /add --yes/);
  });

  it('takes a member as a user id without a lookup, and refuses what is neither an id nor an e-mail', async () => {
    assert.equal(await memberId(offline, ID), ID);
    await assert.rejects(memberId(offline, 'bob'), /bob is neither a user id \(a UUID\) nor an e-mail address/);
  });

  it('shows a missing value as "-" and an object as JSON', () => {
    assert.equal(cellText(null), '-');
    assert.equal(cellText(undefined), '-');
    assert.equal(cellText(3), '3');
    assert.equal(cellText({ a: 1 }), '{"a":1}');
  });

  it('lists items in a table with the given columns in order, "-" for a missing field, and says (none) for none', () => {
    const table = renderList(
      [
        { id: 'w1', name: 'Team A', role: 'owner', extra: 'hidden' },
        { id: 'w2', name: 'Team B', role: null },
      ],
      ['name', 'role'],
    );
    const lines = table.split('\n');
    assert.match(lines[1], /│ name\s+│ role\s+│/);
    assert.ok(lines.some((l) => /│ Team A\s+│ owner\s+│/.test(l)));
    assert.ok(lines.some((l) => /│ Team B\s+│ -\s+│/.test(l)));
    assert.ok(!table.includes('hidden') && !table.includes('w1'));
    assert.equal(renderList([], ['name']), '(none)');
  });

  it("shows a record as one row per field, in the record's order", () => {
    const lines = renderRecord({ id: 't1', token: 'assay_svc_abc', expires_at: null }).split('\n');
    const rows = lines.filter((l) => l.startsWith('│'));
    assert.equal(rows.length, 3);
    assert.match(rows[0], /│ id\s+│ t1\s+│/);
    assert.match(rows[1], /│ token\s+│ assay_svc_abc\s+│/);
    assert.match(rows[2], /│ expires_at\s+│ -\s+│/);
  });
});
