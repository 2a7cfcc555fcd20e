/** A stretch of text a detector found, with the label it reports (a PII kind, a term, a pattern). */
export interface TextSpan {
  start: number;
  end: number;
  label: string;
}

/** Every non-empty match of a global regex, labelled; `accept` may refuse a match (a failed check digit). */
export function matchSpans(
  text: string,
  regex: RegExp,
  label: string,
  accept: (match: string) => boolean = () => true,
): TextSpan[] {
  const spans: TextSpan[] = [];
  const global = regex.global ? regex : new RegExp(regex.source, `${regex.flags}g`);
  global.lastIndex = 0;
  for (let match = global.exec(text); match !== null; match = global.exec(text)) {
    if (match[0] === '') {
      global.lastIndex++;
      continue;
    }
    if (accept(match[0])) spans.push({ start: match.index, end: match.index + match[0].length, label });
  }
  return spans;
}

/** Replaces each span (non-overlapping) with `replacement(span)`. */
export function replaceSpans(
  text: string,
  spans: readonly TextSpan[],
  replacement: (span: TextSpan) => string,
): string {
  let out = '';
  let cursor = 0;
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    if (span.start < cursor) continue;
    out += text.slice(cursor, span.start) + replacement(span);
    cursor = span.end;
  }
  return out + text.slice(cursor);
}

/**
 * Keeps spans in order of priority, dropping any that overlaps one already kept. Marks the characters kept spans
 * cover instead of comparing every pair, so the cost is the total length of the (non-empty) spans, not its square.
 */
export function withoutOverlaps(spans: readonly TextSpan[]): TextSpan[] {
  const covered = new Uint8Array(spans.reduce((end, span) => Math.max(end, span.end), 0));
  const kept: TextSpan[] = [];
  for (const span of spans) {
    if (covered.subarray(span.start, span.end).includes(1)) continue;
    covered.fill(1, span.start, span.end);
    kept.push(span);
  }
  return kept;
}
