import assert from 'node:assert/strict';
import { readCatalogFile, BUILTIN_CATALOG_FILE } from '../../lib/mcp/catalog-seed';
import { operatorCatalogEntrySchema } from '../../domain/mcp/mcp-catalog-entry';
import { unpinnedCommandProblem } from '../../domain/mcp/package-pin';

const stdioEntry = (command: string[]) => ({
  name: 'some-server',
  label: 'Some server',
  image: 'https://example.com/i.png',
  transport: 'stdio_curated',
  command,
});

describe('stdio catalog commands pin exact package versions', () => {
  it('accepts runner commands that name one exact version', () => {
    for (const command of [
      ['npx', '-y', '@modelcontextprotocol/server-everything@2026.8.31'],
      ['npx', '--yes', 'firecrawl-mcp@3.26.0', '--flag'],
      ['/usr/local/bin/npx', '-y', 'mcp-remote@0.15.1', 'https://mcp.example.com/mcp'],
      ['npx', '-y', '--package=@scope/pkg@1.0.0-beta.2', 'pkg-bin'],
      ['npx', '-p', 'a@1.2.3', '-p', 'b@4.5.6', 'run-b'],
      ['npm', 'exec', '--', 'pkg@1.2.3'],
      ['pnpm', 'dlx', 'pkg@1.2.3'],
      ['bunx', 'pkg@1.2.3'],
      ['uvx', 'elevenlabs-mcp==0.12.2'],
      ['uvx', 'mcp-server-fetch@2025.4.7'],
      ['uvx', '--python', '3.12', '--from', 'mcp-server-git==2025.1.14', 'mcp-server-git'],
      ['uvx', '--with', 'extra==1.0', 'tool[cli]==2.0.1rc1'],
      ['uv', 'tool', 'run', 'pkg==1.0.post1'],
      ['pipx', 'run', '--spec', 'pkg==3.1', 'pkg'],
      ['docker', 'run', '-i', '--rm', '-e', 'GITHUB_TOKEN', 'ghcr.io/github/github-mcp-server:v0.12.1'],
      ['docker', 'run', '-i', `mcp/fetch@sha256:${'a'.repeat(64)}`],
    ]) {
      assert.equal(unpinnedCommandProblem(command), undefined, command.join(' '));
    }
  });

  it('refuses runner commands that fetch a floating name, tag or range, and says how to pin', () => {
    const cases: Array<[string[], RegExp]> = [
      [['npx', '-y', 'firecrawl-mcp'], /^fetches firecrawl-mcp without an exact version: pin it \(name@1\.2\.3\)$/],
      [['npx', '-y', '@modelcontextprotocol/server-everything'], /fetches @modelcontextprotocol\/server-everything/],
      [['npx', '-y', 'pkg@latest'], /fetches pkg@latest/],
      [['npx', '-y', 'pkg@^1.2.3'], /fetches pkg@\^1\.2\.3/],
      [['npx', '-y', 'pkg@1.x'], /fetches pkg@1\.x/],
      [['npx', '-y', 'github:owner/repo'], /fetches github:owner\/repo/],
      [['npx', '-p', 'a@1.2.3', '-p', 'b', 'run-b'], /fetches b without/],
      [['npx', '-y'], /^names no package/],
      [['uvx', 'elevenlabs-mcp'], /fetches elevenlabs-mcp without an exact version: pin it \(name==1\.2\.3\)/],
      [['uvx', 'pkg>=1.0'], /fetches pkg>=1\.0/],
      [['uvx', 'pkg==1.*'], /fetches pkg==1\.\*/],
      [['uvx', '--with', 'extra', 'pkg==1.0'], /fetches extra without/],
      [['uvx', '--from', 'git+https://example.com/r.git', 'prog'], /fetches git\+https/],
      [['uvx', '--index-url', 'https://example.com/simple', 'pkg'], /fetches pkg without/],
      [['pipx', 'run', 'pkg'], /fetches pkg without/],
      [
        ['docker', 'run', '-i', '--rm', '-e', 'TOKEN', 'ghcr.io/github/github-mcp-server'],
        /image:1\.2\.3 or image@sha256/,
      ],
      [['docker', 'run', 'mcp/fetch:latest'], /fetches mcp\/fetch:latest/],
    ];
    for (const [command, message] of cases)
      assert.match(unpinnedCommandProblem(command) ?? '', message, command.join(' '));
  });

  it('leaves commands that fetch nothing to the worker image that installed them', () => {
    for (const command of [
      ['/opt/mcp/bin/server', '--stdio'],
      [process.execPath, '/opt/mcp/everything/dist/index.js', 'stdio'],
      ['python3', '-m', 'my_server'],
      ['npm', 'start'],
    ]) {
      assert.equal(unpinnedCommandProblem(command), undefined, command.join(' '));
    }
  });

  it('refuses an unpinned stdio entry in the catalog schema, naming the command', () => {
    const parsed = operatorCatalogEntrySchema.safeParse(stdioEntry(['npx', '-y', 'some-mcp']));
    assert.equal(parsed.success, false);
    const issue = parsed.error?.issues[0];
    assert.deepEqual(issue?.path, ['command']);
    assert.match(issue?.message ?? '', /fetches some-mcp without an exact version/);
    assert.equal(operatorCatalogEntrySchema.safeParse(stdioEntry(['npx', '-y', 'some-mcp@1.0.0'])).success, true);
  });

  it('ships a built-in catalog whose stdio commands are all pinned', () => {
    const stdio = readCatalogFile(BUILTIN_CATALOG_FILE).filter((entry) => entry.transport === 'stdio_curated');
    assert.ok(stdio.length >= 3);
    for (const entry of stdio) assert.equal(unpinnedCommandProblem(entry.command ?? []), undefined, entry.name);
  });
});
