import assert from 'node:assert/strict';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import { LIMITS } from '../../domain/limits';
import { ResourceTemplates } from '../../domain/mcp/resource-templates';

const TEMPLATES = [
  'file:///{path}',
  'file:///{+path}',
  'repo://{owner}/{repo}/issues/{number}',
  'demo://resource/dynamic/{type}/{index}',
  'h://{a}{b}{c}x',
  'list://{items*}',
  'seg://x{/parts*}/end',
  'seg://x{/part}',
  'file://a{.ext}',
  'search://q{?query,limit}',
  'search://q{?query}{&page}',
  'frag://doc{#section}',
  'multi://{a,b}',
  'lit://a.b(c)[d]*+?^$|\\',
];
const URIS = [
  'file:///etc/passwd',
  'file:///a/b',
  'file:///a,b',
  'file:///',
  'repo://org/name/issues/12',
  'repo://org/name/issues/',
  'demo://resource/dynamic/text/1',
  'h://abcx',
  'h://abx',
  'h://a/bcx',
  'list://a,b,c',
  'list://a,,b',
  'seg://x/a,b/end',
  'seg://x/a',
  'seg://x/a/b',
  'file://a.js',
  'file://a.',
  'search://q?query=x&limit=2',
  'search://q?query=x',
  'search://q?query=x&page=3',
  'frag://doc#intro',
  'frag://doc#a\nb',
  'multi://a,b',
  'multi://ab',
  'lit://a.b(c)[d]*+?^$|\\',
  'lit://aXb(c)[d]*+?^$|\\',
];

describe('resource templates matched on RE2', () => {
  it('matches a URI exactly when the MCP SDK’s UriTemplate does', () => {
    for (const template of TEMPLATES)
      for (const uri of URIS)
        assert.equal(
          new ResourceTemplates([template]).matches(uri),
          new UriTemplate(template).match(uri) !== null,
          `${template} on ${JSON.stringify(uri)}`,
        );
  });

  it('answers a URI of the longest allowed length against a backtracking template in linear time', () => {
    // A template of one long literal run is the costliest per character: up to a step per literal character.
    const literalRun = `h://{a}${'a'.repeat(LIMITS.resourceTemplateChars - 40)}b`;
    const templates = new ResourceTemplates(['h://{a}{b}{c}{d}x', literalRun]);
    const started = performance.now();
    assert.equal(templates.matches(`h://${'a'.repeat(LIMITS.resourceUriChars - 6)}bc`), false);
    assert.ok(performance.now() - started < 1_000, `took ${performance.now() - started} ms`);
  });

  it('matches no URI over resourceUriChars, and no template past resourceTemplateChars', () => {
    assert.equal(new ResourceTemplates(['h://{a}']).matches(`h://${'a'.repeat(LIMITS.resourceUriChars)}`), false);
    const filler = `f://${'x'.repeat(LIMITS.resourceTemplateChars - 4)}`;
    assert.equal(new ResourceTemplates([filler, 'h://{a}']).matches('h://b'), false);
    assert.equal(new ResourceTemplates(['h://{a}', filler]).matches('h://b'), true);
    assert.equal(new ResourceTemplates(['h://{unclosed', 'h://{a}']).matches('h://b'), true);
  });
});
