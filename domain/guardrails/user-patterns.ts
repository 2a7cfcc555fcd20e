import { RE2JS } from 're2js';
import { LIMITS } from '../limits';
import type { TextSpan } from './text-spans';

// JS writes a UTF-16 unit as \uXXXX, which RE2 does not know; \x{XXXX} is its spelling. Other escapes pass as given.
const JS_UNICODE_ESCAPE = /\\(?:u([0-9A-Fa-f]{4})|[^])/g;
const toRe2Syntax = (source: string): string =>
  source.replace(JS_UNICODE_ESCAPE, (escape, hex?: string) => (hex ? `\\x{${hex}}` : escape));

const COMPILED_PATTERNS_KEPT = 2_000;
const compiled = new Map<string, RE2JS>();

/**
 * Compiles a builder's pattern on RE2 (`re2js`): matching time is linear in the text whatever the pattern, unlike
 * JavaScript's backtracking RegExp (`(a+)+b` on a line of `a`s). Throws RE2's reason for a pattern it refuses.
 */
export function compileUserPattern(source: string, caseInsensitive: boolean): RE2JS {
  const key = `${caseInsensitive ? 'i' : '-'}${source}`;
  const cached = compiled.get(key);
  if (cached) return cached;
  const pattern = RE2JS.compile(toRe2Syntax(source), caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
  // Settings are validated on every agent step and guardrails applied on every input and output: compiling once per
  // pattern keeps RE2's compile off that path. Bounded, and started afresh when full (patterns are few per agent).
  if (compiled.size >= COMPILED_PATTERNS_KEPT) compiled.clear();
  compiled.set(key, pattern);
  return pattern;
}

/**
 * Why a pattern cannot be used, or undefined: RE2 refuses it (backreferences, lookaround, a bad group…), or it
 * compiles to more than `LIMITS.patternProgramSize` instructions (finding a match costs up to that much per character).
 */
export function userPatternProblem(source: string): string | undefined {
  let size: number;
  try {
    size = compileUserPattern(source, false).programSize();
  } catch (error) {
    return (error as Error).message.replace(/^error parsing regexp: /, '');
  }
  const limit = LIMITS.patternProgramSize;
  return size > limit ? `compiles to ${size} RE2 instructions, more than ${limit}` : undefined;
}

/**
 * The first `maxSpans` non-empty matches of a compiled pattern, labelled. One search is linear, but a pattern that
 * must look to the end of the text before settling each match (`a*b|a`) makes every search cost the whole text; so
 * after `LIMITS.patternSearchesPerText` searches the rest of the text counts as one match (redacting too much, never
 * too little) and the total stays that many passes.
 */
export function userPatternSpans(text: string, pattern: RE2JS, label: string, maxSpans = Infinity): TextSpan[] {
  // Most texts match no pattern: RE2's DFA says so in one cheap pass, before the slower search that finds positions.
  if (!pattern.test(text)) return [];
  const matcher = pattern.matcher(text);
  const spans: TextSpan[] = [];
  let from = 0;
  for (let searches = 0; spans.length < maxSpans && from <= text.length && matcher.find(from); searches++) {
    const [start, end] = [matcher.start(), matcher.end()];
    if (searches === LIMITS.patternSearchesPerText) {
      if (start < text.length) spans.push({ start, end: text.length, label });
      break;
    }
    if (end > start) spans.push({ start, end, label });
    from = end > start ? end : start + 1;
  }
  return spans;
}
