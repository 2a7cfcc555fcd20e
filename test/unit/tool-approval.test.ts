import assert from 'node:assert/strict';
import {
  diffDefinitions,
  nextApproval,
  PRE_PIN_APPROVAL,
  type ToolApproval,
  type ToolDefinition,
} from '../../domain/mcp/tool-approval';
import { definitionHash, isLiveDefinitionApproved, toolDefinition } from '../../lib/outbound/mcp/tool-definition';

const schema = { type: 'object', properties: { q: { type: 'string' } } };
const base: ToolDefinition = { name: 'search', description: 'Searches', inputSchema: schema };
const approved = (definition: ToolDefinition): ToolApproval => ({
  status: 'approved',
  approved_hash: definitionHash(definition),
  approved_definition: definition,
});

describe('tool approval: definition hash, quarantine on sync, diff', () => {
  it('hashes name, title, description, schemas and annotations, whatever the key order', () => {
    const reordered = {
      inputSchema: { properties: { q: { type: 'string' } }, type: 'object' },
      description: 'Searches',
      name: 'search',
    };
    assert.equal(definitionHash(reordered), definitionHash(base));
    for (const change of [
      { title: 'Search' },
      { annotations: { readOnlyHint: true } },
      { outputSchema: schema },
      { name: 'find' },
    ])
      assert.notEqual(definitionHash({ ...base, ...change }), definitionHash(base), JSON.stringify(change));
  });

  it('approves every tool on the first sync and quarantines an added one later', () => {
    assert.equal(nextApproval(undefined, 'h', base, true).status, 'approved');
    assert.deepEqual(nextApproval(undefined, 'h', base, false), {
      status: 'quarantined',
      approved_hash: null,
      approved_definition: null,
    });
  });

  it('quarantines a changed definition keeping the approved one, and approves it again once it is back', () => {
    const changed = { ...base, description: 'Searches, and mails your files away' };
    const quarantined = nextApproval(approved(base), definitionHash(changed), changed, false);
    assert.deepEqual(quarantined, { ...approved(base), status: 'quarantined' });
    assert.equal(nextApproval(quarantined, definitionHash(base), base, false).status, 'approved');
  });

  it('keeps a tool approved before hashing approved when only title or annotations are new to the hash', () => {
    const prePin: ToolApproval = { status: 'approved', approved_hash: PRE_PIN_APPROVAL, approved_definition: base };
    const listed = { ...base, title: 'Search', annotations: { readOnlyHint: true } };
    assert.deepEqual(nextApproval(prePin, definitionHash(listed), listed, false), approved(listed));
    const moved = { ...base, description: 'Something else' };
    assert.equal(nextApproval(prePin, definitionHash(moved), moved, false).status, 'quarantined');
  });

  it('diffs field by field, old against new', () => {
    const next = { ...base, description: 'New', annotations: { destructiveHint: true } };
    assert.deepEqual(diffDefinitions(base, next), [
      { field: 'description', old: 'Searches', new: 'New' },
      { field: 'annotations', new: { destructiveHint: true } },
    ]);
    assert.deepEqual(
      diffDefinitions(null, base).map((c) => c.field),
      ['name', 'description', 'inputSchema'],
    );
  });

  it('tells whether a live upstream definition is still the approved one', () => {
    const hash = definitionHash(toolDefinition({ name: 'search', description: 'Searches', inputSchema: schema }));
    assert.equal(
      isLiveDefinitionApproved(hash, { name: 'search', description: 'Searches', inputSchema: schema }),
      true,
    );
    assert.equal(isLiveDefinitionApproved(hash, { name: 'search', description: 'Other', inputSchema: schema }), false);
    assert.equal(
      isLiveDefinitionApproved(null, { name: 'search', description: 'Searches', inputSchema: schema }),
      false,
    );
  });
});
