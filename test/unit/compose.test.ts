import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { loadConfig } from '../../lib/config';
import { SEARCH_ATTRIBUTES } from '../../workflows/temporal-names';

// Docker is not on these machines: this reads docker-compose.yml (and the Dockerfile) and checks what can be checked
// without running them.
const ROOT = path.join(__dirname, '..', '..');
const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');

interface Service {
  image?: string;
  build?: unknown;
  restart?: string;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
}
const compose = parse(read('docker-compose.yml'), { merge: true }) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
const services = compose.services;
const ASSAY_SERVICES = ['api', 'worker'];
const STATEFUL: Record<string, string> = { postgres: '/var/lib/postgresql/data', vault: '/openbao/file' };

/** Services other services wait to have exited 0: one-shot setup jobs. */
const oneShots = new Set(
  Object.values(services).flatMap((service) =>
    Object.entries(service.depends_on ?? {})
      .filter(([, dependency]) => dependency.condition === 'service_completed_successfully')
      .map(([name]) => name),
  ),
);

// What the operator's .env would hold for the required variables; defaults (`${VAR:-x}`) stand for the others.
const SAMPLE: Record<string, string> = {
  ASSAY_MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
  POSTGRES_PASSWORD: 'a1b2c3',
  VAULT_TOKEN: 's.sample',
};
/** Compose's interpolation, for the forms this file uses: `${VAR:-default}`, `${VAR:?message}` and `$$`. */
function interpolate(value: string): string {
  return value.replace(/\$\$|\$\{(\w+)(?::([-?])([^}]*))?\}/g, (whole, name?: string, kind?: string, rest?: string) => {
    if (whole === '$$') return '$';
    if (kind === '-') return rest ?? '';
    assert.ok(name && SAMPLE[name] !== undefined, `${whole}: a sample value for the test`);
    return SAMPLE[name];
  });
}

describe('docker-compose.yml', () => {
  it('pins every image to a version tag (no latest, no untagged); built images carry the package version', () => {
    const version = (JSON.parse(read('package.json')) as { version: string }).version;
    for (const [name, service] of Object.entries(services)) {
      assert.ok(service.image, `${name} names its image`);
      const tag = /:([^:/]+)$/.exec(service.image)?.[1];
      assert.ok(tag && tag !== 'latest' && /\d/.test(tag), `${name}: ${service.image} is pinned to a version`);
      if (service.build) assert.equal(tag, version, `${name}: the built image is tagged with package.json's version`);
    }
  });

  it('has a health check on every service but the one-shot setup jobs, which run once and are waited for', () => {
    assert.deepEqual([...oneShots], ['temporal-setup']);
    for (const [name, service] of Object.entries(services)) {
      if (oneShots.has(name)) {
        assert.equal(service.restart, 'no', `${name} is not restarted once it completed`);
        assert.equal(service.healthcheck, undefined, `${name} is waited for by its exit code`);
      } else assert.ok(service.healthcheck?.test?.length, `${name} has a health check`);
      for (const dependency of Object.keys(service.depends_on ?? {}))
        assert.ok(services[dependency], `${name} depends on ${dependency}, a service of the file`);
    }
  });

  it('keeps the state of Postgres and OpenBao in named volumes; Temporal keeps its state in that Postgres', () => {
    for (const [name, mountPoint] of Object.entries(STATEFUL)) {
      const volume = services[name].volumes?.find((entry) => entry.endsWith(`:${mountPoint}`))?.split(':')[0];
      assert.ok(volume && volume in compose.volumes, `${name}: ${mountPoint} is a named volume`);
    }
    const temporal = services.temporal.environment ?? {};
    assert.equal(temporal.DB, 'postgres12');
    assert.equal(temporal.POSTGRES_SEEDS, 'postgres');
    assert.equal(services.temporal.volumes, undefined, 'Temporal has no local state');
    const vault = services.vault;
    assert.ok(!vault.command?.some((arg) => arg.startsWith('-dev')), 'OpenBao does not run in dev mode');
    const config = JSON.parse(vault.environment?.BAO_LOCAL_CONFIG ?? '{}') as { storage?: { file?: { path: string } } };
    assert.equal(config.storage?.file?.path, STATEFUL.vault, 'OpenBao stores to its volume');
  });

  it('sets on api and worker only variables of lib/config.ts and the README configuration table', () => {
    const schemaKeys = new Set([...read('lib/config.ts').matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]));
    const table =
      read('docs/operations.md')
        .split(/^## Configuration$/m)[1]
        ?.split(/^## /m)[0] ?? '';
    const tableKeys = new Set([...table.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1]));
    assert.ok(schemaKeys.has('ASSAY_MASTER_KEY') && tableKeys.has('ASSAY_MASTER_KEY'), 'both lists are read');
    assert.deepEqual(services.api.environment, services.worker.environment, 'api and worker share one environment');
    for (const name of ASSAY_SERVICES)
      for (const variable of Object.keys(services[name].environment ?? {})) {
        assert.ok(schemaKeys.has(variable), `${name}: ${variable} is read by lib/config.ts`);
        assert.ok(tableKeys.has(variable), `${name}: ${variable} is in the README configuration table`);
      }
  });

  it('refuses to start without the required variables, and every value it gives passes lib/config.ts', () => {
    const raw = read('docker-compose.yml');
    for (const reference of raw.matchAll(/(?<!\$)\$\{(\w+)([^}]*)\}/g))
      assert.match(reference[2], /^:[-?]/, `\${${reference[1]}} has a default (:-) or is required (:?)`);
    const env = services.api.environment ?? {};
    for (const required of ['ASSAY_MASTER_KEY', 'VAULT_TOKEN'])
      assert.match(env[required], new RegExp(`^\\$\\{${required}:\\?.+\\}$`), `${required} is required`);
    assert.match(env.DATABASE_URL, /\$\{POSTGRES_PASSWORD:\?/, 'the database password is required');
    const config = loadConfig(Object.fromEntries(Object.entries(env).map(([key, value]) => [key, interpolate(value)])));
    assert.equal(config.ASSAY_MASTER_KEY, SAMPLE.ASSAY_MASTER_KEY);
    assert.equal(config.DATABASE_URL, `postgres://assay:${SAMPLE.POSTGRES_PASSWORD}@postgres:5432/assay`);
  });

  it('registers exactly the search attributes of workflows/temporal-names.ts in the one-shot setup job', () => {
    const setup = services['temporal-setup'];
    const pairs = (setup.environment?.SEARCH_ATTRIBUTES ?? '').split(/\s+/).map((pair) => pair.split('='));
    assert.deepEqual(Object.fromEntries(pairs), SEARCH_ATTRIBUTES);
    assert.match(setup.command?.join('\n') ?? '', /search-attribute create/);
    for (const name of ['api', 'worker', 'temporal-ui']) {
      const waitsFor = (service: string): boolean =>
        service === 'temporal-setup' || Object.keys(services[service].depends_on ?? {}).some(waitsFor);
      assert.ok(waitsFor(name), `${name} starts after the search attributes are registered`);
    }
  });

  it("wires the Temporal UI to the api's codec, and the api lets the UI's origin use it", () => {
    const ui = services['temporal-ui'].environment ?? {};
    const api = services.api.environment ?? {};
    assert.equal(interpolate(ui.TEMPORAL_CODEC_ENDPOINT), `${interpolate(api.ASSAY_PUBLIC_URL)}/codec`);
    assert.equal(ui.TEMPORAL_CODEC_PASS_ACCESS_TOKEN, 'true');
    assert.equal(interpolate(api.TEMPORAL_CODEC_ORIGINS), new URL(interpolate(api.TEMPORAL_UI_URL)).origin);
    const uiPort = new URL(interpolate(api.TEMPORAL_UI_URL)).port;
    assert.ok(services['temporal-ui'].volumes === undefined);
    assert.ok(JSON.stringify(services['temporal-ui']).includes(`:${uiPort}:8080`), 'the UI is published there');
  });
});

describe('Dockerfile', () => {
  it('builds in one stage and runs as a non-root user under tini, with the files the health checks use', () => {
    const dockerfile = read('Dockerfile');
    assert.equal(dockerfile.match(/^FROM /gm)?.length, 2, 'two stages');
    assert.match(dockerfile, /^USER node$/m);
    assert.match(dockerfile, /^ENTRYPOINT \["\/usr\/bin\/tini", "--", "node", "bin\/assay\.js"\]$/m);
    const script = services.worker.healthcheck?.test.at(-1) ?? '';
    assert.ok(fs.existsSync(path.join(ROOT, script)), `${script} exists`);
    assert.match(dockerfile, new RegExp(`^COPY ${script} \\./${script}$`, 'm'), `the image carries ${script}`);
  });
});
