/** The judge's verdict on one rubric, addressed by the rubric's 0-based index in the case. */
export interface RubricVerdict {
  index: number;
  verdict: 'YES' | 'NO';
  justification: string;
}

/** The judge's verdict on whether the actual final response is equivalent in meaning to the expected one. */
export interface MatchVerdict {
  equivalent: boolean;
  justification: string;
}

type JsonObject = Record<string, unknown>;

// Bounds the brace scan so a pathological reply cannot make parsing quadratic in its length.
const MAX_JSON_CANDIDATES = 32;
const FENCE = '```';
const VERDICT_LIST_KEYS = ['verdicts', 'rubrics', 'results', 'evaluations'] as const;
const MATCH_KEYS = ['equivalent', 'is_equivalent', 'match', 'matches', 'verdict', 'answer'] as const;
const JUSTIFICATION_KEYS = ['justification', 'reason', 'reasoning', 'explanation'] as const;

// Yields the JSON values in a judge reply, lazily: the whole text, fenced blocks, then balanced {…} / […] spans.
function* jsonCandidates(text: string): Generator<unknown> {
  const parsed = tryParse(text.trim());
  if (parsed.ok) yield parsed.value;
  for (const fence of fencedBlocks(text)) {
    const fenced = tryParse(fence.trim());
    if (fenced.ok) yield fenced.value;
  }
  let attempts = 0;
  for (let start = 0; start < text.length && attempts < MAX_JSON_CANDIDATES; start++) {
    if (text[start] !== '{' && text[start] !== '[') continue;
    attempts++;
    const end = balancedEnd(text, start);
    const span = end === -1 ? { ok: false as const } : tryParse(text.slice(start, end + 1));
    if (span.ok) yield span.value;
  }
}

// The bodies of ```lang … ``` blocks, by indexOf: the regex /```[a-zA-Z]*\s*\n?([\s\S]*?)```/ retried its language
// tag letter by letter against the rest of the reply, quadratic on a long unclosed block. Whitespace is trimmed later.
function* fencedBlocks(text: string): Generator<string> {
  for (let open = text.indexOf(FENCE); open !== -1; open = text.indexOf(FENCE, open)) {
    let body = open + FENCE.length;
    while (/[a-zA-Z]/.test(text[body] ?? '')) body++;
    const close = text.indexOf(FENCE, body);
    if (close === -1) return;
    yield text.slice(body, close);
    open = close + FENCE.length;
  }
}

// By hand: /[.!]+$/ restarts at every dot of a long run that does not end the text, quadratic in the run.
function withoutFinalPunctuation(text: string): string {
  let end = text.length;
  while (end > 0 && (text[end - 1] === '.' || text[end - 1] === '!')) end--;
  return text.slice(0, end);
}

function tryParse(source: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(source) };
  } catch {
    return { ok: false };
  }
}

function balancedEnd(text: string, start: number): number {
  const closers: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') closers.push('}');
    else if (char === '[') closers.push(']');
    else if (char === '}' || char === ']') {
      if (closers.pop() !== char) return -1;
      if (closers.length === 0) return i;
    }
  }
  return -1;
}

function firstUsable<T>(output: unknown, read: (value: unknown) => T | null): T | null {
  const values = typeof output === 'string' ? jsonCandidates(output) : [output];
  for (const value of values) {
    const parsed = read(value);
    if (parsed !== null) return parsed;
  }
  return null;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function yesNo(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') return null;
  const word = value.trim().toLowerCase();
  if (word === 'yes' || word === 'true') return true;
  if (word === 'no' || word === 'false') return false;
  return null;
}

function justificationOf(entry: JsonObject): string {
  const key = JUSTIFICATION_KEYS.find((candidate) => typeof entry[candidate] === 'string');
  return key ? (entry[key] as string).trim() : '';
}

function indexOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) return Number(value);
  return null;
}

function readRubricVerdicts(value: unknown, rubricCount: number): RubricVerdict[] | null {
  const list = Array.isArray(value)
    ? value
    : isObject(value)
      ? VERDICT_LIST_KEYS.map((key) => value[key]).find(Array.isArray)
      : undefined;
  if (!list || list.length !== rubricCount) return null;
  const entries: RubricVerdict[] = [];
  for (const entry of list) {
    if (!isObject(entry)) return null;
    const index = indexOf(entry.index);
    const approved = yesNo(entry.verdict);
    if (index === null || approved === null) return null;
    entries.push({ index, verdict: approved ? 'YES' : 'NO', justification: justificationOf(entry) });
  }
  // A judge may count rubrics from 1; a complete 1..n set cannot be mistaken for 0..n-1 since it lacks 0.
  const oneBased = rubricCount > 0 && entries.every((e) => e.index >= 1 && e.index <= rubricCount);
  const byIndex = new Map<number, RubricVerdict>();
  for (const entry of entries) {
    const index = oneBased ? entry.index - 1 : entry.index;
    if (index < 0 || index >= rubricCount || byIndex.has(index)) return null;
    byIndex.set(index, { ...entry, index });
  }
  return Array.from({ length: rubricCount }, (_, index) => byIndex.get(index) as RubricVerdict);
}

function readMatchVerdict(value: unknown): MatchVerdict | null {
  const direct = yesNo(value);
  if (direct !== null) return { equivalent: direct, justification: '' };
  if (!isObject(value)) return null;
  for (const key of MATCH_KEYS) {
    const equivalent = yesNo(value[key]);
    if (equivalent !== null) return { equivalent, justification: justificationOf(value) };
  }
  return null;
}

/**
 * Reads per-rubric verdicts from a judge reply: a JSON array, or an object holding one under `verdicts`, of
 * `{ index, verdict: "YES" | "NO", justification }`, one per rubric; the JSON may sit in a fence or in prose.
 * Returns the verdicts ordered by index, or null when unusable (wrong count, missing or duplicate index,
 * a verdict other than yes or no).
 */
export function parseRubricVerdicts(output: unknown, rubricCount: number): RubricVerdict[] | null {
  return firstUsable(output, (value) => readRubricVerdicts(value, rubricCount));
}

/**
 * Reads an equivalence verdict from a judge reply: JSON such as `{ "equivalent": true, "justification": "…" }`
 * (also `verdict: "YES"`), possibly fenced or wrapped in prose, or a bare YES / NO. Returns null when unusable.
 */
export function parseMatchVerdict(output: unknown): MatchVerdict | null {
  if (typeof output === 'string') {
    const bare = yesNo(withoutFinalPunctuation(output.trim()));
    if (bare !== null) return { equivalent: bare, justification: '' };
  }
  return firstUsable(output, readMatchVerdict);
}
