import type { TextSpan } from './text-spans';

// What `[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}` matches, found by hand. As a JavaScript
// RegExp that pattern retries its unbounded local part from every start, quadratic on a long run of letters; RE2 is
// linear but reads each character through a state machine. Anchoring at each `@` reads every character at most
// twice (once leftwards as a local part, once rightwards as a domain), with the regex's leftmost, non-overlapping
// matches.

const isAlnum = (c: number): boolean => (c >= 48 && c <= 57) || isLetter(c);
const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
// . _ % + -
const isLocal = (c: number): boolean => isAlnum(c) || c === 46 || c === 95 || c === 37 || c === 43 || c === 45;
const isLabel = (c: number): boolean => isAlnum(c) || c === 45;
const DOT = 46;

/** E-mail addresses in a text, in order, as the e-mail pattern above finds them. */
export function scanEmails(text: string): TextSpan[] {
  const spans: TextSpan[] = [];
  let from = 0;
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > from && isLocal(text.charCodeAt(start - 1))) start--;
    if (start === at) continue;
    const end = domainEnd(text, at + 1);
    if (end === -1) continue;
    spans.push({ start, end, label: 'email' });
    from = end;
    at = end - 1;
  }
  return spans;
}

// Dot-separated labels from `start`; the address ends after the letters that open the last label (not the first)
// to start with two or more letters, as the pattern's greedy repetition settles. -1 when there is none.
function domainEnd(text: string, start: number): number {
  let end = -1;
  let position = start;
  for (let label = 0; isLabel(text.charCodeAt(position)); label++) {
    const labelStart = position;
    while (isLabel(text.charCodeAt(position))) position++;
    let letters = labelStart;
    while (letters < position && isLetter(text.charCodeAt(letters))) letters++;
    if (label > 0 && letters - labelStart >= 2) end = letters;
    if (text.charCodeAt(position) !== DOT) break;
    position++;
  }
  return end;
}
