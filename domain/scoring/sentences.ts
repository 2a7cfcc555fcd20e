/**
 * Splits a response into sentences, deterministically (docs/evaluation.md "hallucinations"): a line break always ends a
 * sentence; otherwise a sentence ends after `.`, `!`, `?` or `…` (a run of them, and any closing quote or bracket
 * right after) when whitespace follows. So `3.5`, `e.g.x` and a URL stay whole, while `Dr. Smith` splits in two.
 * Markdown list markers and surrounding whitespace are trimmed; empty pieces are dropped.
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const body = line.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '');
    for (const piece of body.split(/(?<=[.!?…]+["'”’)\]]*)\s+/)) {
      const sentence = piece.trim();
      if (sentence !== '') sentences.push(sentence);
    }
  }
  return sentences;
}
