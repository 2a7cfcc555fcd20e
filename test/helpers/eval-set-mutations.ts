import { snakeCase } from '../../domain/eval/adk-schema';
import { ADK_SET_FILES, fixtureJson, isLegacyList } from './adk-files';
import { ADK_FIXTURE } from './adk-fixture';
import { seededRandom } from './trajectory-pairs';
import fs from 'node:fs';

type Json = any;

/** One mutated eval set: the file it came from, what was changed where, and the mutated document. */
export interface EvalSetMutation {
  file: string;
  change: string;
  value: Json;
}

// Inside these keys is the user's own data (tool args, responses, state, personas): ADK takes any JSON there.
const USER_DATA = new Set(['args', 'response', 'state', 'final_session_state', 'user_persona', 'agent_details']);

type Slot = { parent: Json; key: string | number; path: string };

// Every object key and list item of the document outside user data, each with its path.
function slots(value: Json, path = '', found: Slot[] = []): Slot[] {
  if (value === null || typeof value !== 'object') return found;
  for (const [key, item] of Object.entries(value)) {
    const itemKey = Array.isArray(value) ? Number(key) : key;
    const itemPath = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
    found.push({ parent: value, key: itemKey, path: itemPath });
    if (!USER_DATA.has(snakeCase(String(key)))) slots(item, itemPath, found);
  }
  return found;
}

const camelCase = (key: string): string => key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

// A value of another JSON type, one no lax pydantic coercion turns back into the original's type.
function retyped(value: Json): Json {
  if (value === null) return 42;
  if (Array.isArray(value)) return 'text';
  if (typeof value === 'object') return [1];
  if (typeof value === 'string') return 42;
  if (typeof value === 'number') return 'not a number';
  return 'maybe';
}

function recased(key: string, random: () => number): string {
  const toggled = key.includes('_') ? camelCase(key) : snakeCase(key);
  if (toggled !== key && random() < 0.6) return toggled;
  return random() < 0.5 ? key.toUpperCase() : key[0].toUpperCase() + key.slice(1);
}

const KINDS = ['remove', 'null', 'retype', 'recase', 'unknown key'] as const;

// Renaming keeps the key's place among its siblings, so a dump's order says nothing.
const renamed = (parent: Json, from: string, to: string): void => {
  const entries = Object.entries(parent).map(([key, item]) => [key === from ? to : key, item]);
  for (const key of Object.keys(parent)) delete parent[key];
  Object.assign(parent, Object.fromEntries(entries));
};

function mutate(document: Json, random: () => number): { change: string; value: Json } | null {
  const value = structuredClone(document);
  const all = slots(value);
  const slot = all[Math.floor(random() * all.length)];
  const kind = KINDS[Math.floor(random() * KINDS.length)];
  const { parent, key, path } = slot;
  if (kind === 'unknown key') {
    const target = typeof parent[key] === 'object' && parent[key] && !Array.isArray(parent[key]) ? parent[key] : null;
    if (!target) return null;
    target.unexpected_field = 1;
    return { change: `unknown key at ${path}`, value };
  }
  if (kind === 'remove') {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete parent[key];
  } else if (kind === 'null') parent[key] = null;
  else if (kind === 'retype') parent[key] = retyped(parent[key]);
  else if (typeof key === 'number') return null;
  else renamed(parent, key, recased(key, random));
  return { change: `${kind} ${path}`, value };
}

/** The real ADK EvalSet files (the older lists are ADK's conversions, not its model) and Assay's own fixture. */
export function evalSetBases(): Array<{ file: string; value: Json }> {
  const real = ADK_SET_FILES.map((file) => ({ file, value: fixtureJson(file) })).filter((b) => !isLegacyList(b.value));
  return [...real, { file: 'support.evalset.json', value: JSON.parse(fs.readFileSync(ADK_FIXTURE, 'utf8')) }];
}

/** `count` seeded mutations of the bases (fields removed, nulled, retyped, cased differently, unknown keys added). */
export function evalSetMutations(seed: number, count: number): EvalSetMutation[] {
  const random = seededRandom(seed);
  const bases = evalSetBases();
  const mutations: EvalSetMutation[] = [];
  while (mutations.length < count) {
    const base = bases[mutations.length % bases.length];
    const mutated = mutate(base.value, random);
    if (mutated) mutations.push({ file: base.file, ...mutated });
  }
  return mutations;
}

/** The document as ADK's EvalSet is asked about it: the outer keys in snake_case (its outer model has no aliases). */
export const adkText = (value: Json): string =>
  JSON.stringify(
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).map(([key, item]) => [snakeCase(key), item]))
      : value,
  );
