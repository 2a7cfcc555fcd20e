/** Names of tools that appeared, disappeared or changed between two syncs of a server. */
export interface ToolChanges {
  added: string[];
  removed: string[];
  changed: string[];
}

/** Compares tool fingerprints (name → hash) of the previous and the new sync. */
export function diffTools(previous: ReadonlyMap<string, string>, next: ReadonlyMap<string, string>): ToolChanges {
  const added = [...next.keys()].filter((name) => !previous.has(name));
  const removed = [...previous.keys()].filter((name) => !next.has(name));
  const changed = [...next.entries()]
    .filter(([name, hash]) => previous.has(name) && previous.get(name) !== hash)
    .map(([name]) => name);
  return { added: added.sort(), removed: removed.sort(), changed: changed.sort() };
}

/** JSON with object keys sorted at every depth, so equal schemas give equal text (and equal hashes). */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
