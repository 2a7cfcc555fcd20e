/**
 * A 32-bit hash of a JSON-like value that agrees with `jsonEqual`: equal values (object key order and keys holding
 * undefined ignored, array order kept) hash the same. Walks the value without building strings, so hashing many
 * tool calls allocates little; callers confirm a hash hit with `jsonEqual`.
 */
export function hashJson(value: unknown): number {
  if (typeof value === 'string') return hashString(value, 0x3c6ef372);
  if (typeof value === 'number')
    return Number.isInteger(value) ? mix(value | 0, 0x1b873593) : hashString(`${value}`, 0x5be0cd19);
  if (typeof value !== 'object' || value === null) return hashString(String(value), 0x6a09e667);
  if (Array.isArray(value)) {
    let hash = 0x510e527f;
    for (const item of value) hash = mix(hash, hashJson(item));
    return hash;
  }
  // A sum over entries: the same whatever order the keys come in.
  let hash = 0x1f83d9ab;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (record[key] !== undefined) hash = (hash + mix(hashString(key, 0x9b05688c), hashJson(record[key]))) | 0;
  }
  return mix(hash, 0x7f);
}

function hashString(text: string, seed: number): number {
  let hash = seed;
  for (let i = 0; i < text.length; i++) hash = mix(hash, text.charCodeAt(i));
  return hash;
}

// One round of MurmurHash3's mixing: spreads every input bit over the result.
function mix(hash: number, value: number): number {
  let k = Math.imul(value, 0xcc9e2d51);
  k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
  const h = hash ^ k;
  return (Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64) | 0;
}
