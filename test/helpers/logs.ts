import assert from 'node:assert/strict';

// The forms a secret could take in a log line: as written, JSON-escaped, base64 and hex.
function forms(secret: string): string[] {
  const bytes = Buffer.from(secret);
  return [
    secret,
    JSON.stringify(secret).slice(1, -1),
    bytes.toString('base64'),
    bytes.toString('base64url'),
    bytes.toString('hex'),
  ];
}

/** Fails when any captured log line holds any of `secrets` (plain, JSON-escaped, base64 or hex); needs some lines to look at. */
export function assertLogsClean(logs: readonly string[], secrets: readonly string[]): void {
  assert.ok(logs.length > 0, 'no log lines were captured');
  for (const secret of secrets) {
    assert.ok(secret.length >= 8, `secret ${JSON.stringify(secret)} is too short to search for`);
    for (const form of forms(secret)) {
      const line = logs.find((l) => l.includes(form));
      assert.equal(line, undefined, `a log line holds a secret: ${line?.replace(form, '<secret>').slice(0, 300)}`);
    }
  }
}
