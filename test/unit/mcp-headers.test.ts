import assert from 'node:assert/strict';
import { headerIssues, looksLikeCredential, referencedSecrets, resolveHeaders } from '../../domain/mcp/mcp-headers';

describe('MCP server header policy', () => {
  const declared = ['STRIPE_API_KEY', 'TENANT'];

  it('accepts secret references, with or without a scheme, and harmless literals', () => {
    assert.deepEqual(
      headerIssues(
        {
          Authorization: 'Bearer $STRIPE_API_KEY',
          'X-Api-Key': '$STRIPE_API_KEY',
          'X-Tenant': 'acme',
          'X-Org': '$TENANT-eu',
          'Stripe-Version': '2024-06-20',
        },
        declared,
      ),
      [],
    );
  });

  it('rejects literal credentials in credential headers and credential-looking values anywhere', () => {
    const issues = headerIssues(
      {
        Authorization: 'Bearer sk_live_abc123',
        'X-Api-Key': 'abc',
        Cookie: 'session=1',
        'X-Custom': 'sk_test_51Habc',
        'X-Other': 'Bearer abcdef',
        'X-Blob': 'a8f5f167f44f4964e6c998dee827110c',
        'X-Jwt': 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig',
      },
      declared,
    );
    assert.deepEqual(
      issues.map((i) => i.header),
      ['Authorization', 'X-Api-Key', 'Cookie', 'X-Custom', 'X-Other', 'X-Blob', 'X-Jwt'],
    );
  });

  it('rejects references to undeclared secrets, naming them', () => {
    const [issue] = headerIssues({ Authorization: 'Bearer $GITHUB_TOKEN' }, declared);
    assert.match(issue.message, /undeclared secret \$GITHUB_TOKEN \(declared: \$STRIPE_API_KEY, \$TENANT\)/);
  });

  it('rejects headers the MCP client manages and malformed names', () => {
    assert.deepEqual(
      headerIssues({ Host: 'evil', 'Mcp-Session-Id': 'x', 'bad name': 'x' }, declared).map((i) => i.header),
      ['Host', 'Mcp-Session-Id', 'bad name'],
    );
  });

  it('resolves references to values and fails on a missing secret', () => {
    assert.deepEqual(
      resolveHeaders({ Authorization: 'Bearer $STRIPE_API_KEY', 'X-Tenant': 'acme' }, { STRIPE_API_KEY: 'rk_1' }),
      { Authorization: 'Bearer rk_1', 'X-Tenant': 'acme' },
    );
    assert.throws(() => resolveHeaders({ A: '$TENANT' }, {}), /references secret \$TENANT, which is not stored/);
    assert.deepEqual(referencedSecrets('$A and $B_2 but not $lower'), ['A', 'B_2']);
  });

  it('does not flag short or plain values as credentials', () => {
    assert.equal(looksLikeCredential('acme-production'), false);
    assert.equal(looksLikeCredential('2024-06-20'), false);
    assert.equal(looksLikeCredential('application/vnd.api+json'), false);
  });
});
