/**
 * Keyword retrieval for the DEMO backend: heading chunks, Latin words plus CJK bigrams, and a
 * tf-idf-like score. Small and honest; the real hybrid search lives in src-main/core/search.
 */
export interface DemoChunk {
  /** Index of the chunk inside the demo's chunk table. */
  id: number;
  headingPath: string;
  text: string;
  charStart: number;
  charEnd: number;
}

/** Splits Markdown at headings; each body paragraph becomes a chunk with its heading path. */
export function chunkDemoMarkdown(markdown: string, firstId: number): DemoChunk[] {
  const chunks: DemoChunk[] = [];
  const headings: string[] = [];
  let offset = 0;
  for (const block of markdown.split('\n\n')) {
    const start = markdown.indexOf(block, offset);
    offset = start + block.length;
    const heading = /^(#{1,6})\s+(.*)$/.exec(block);
    if (heading) {
      headings.length = heading[1]!.length - 1;
      headings.push(heading[2]!.trim());
      continue;
    }
    if (!block.trim()) continue;
    chunks.push({ id: firstId + chunks.length, headingPath: headings.filter(Boolean).join(' > '), text: block, charStart: start, charEnd: start + block.length });
  }
  return chunks;
}

const HAN = /\p{Script=Han}/u;

/** Lower-cased Latin/number words (2+ chars) and overlapping Han bigrams (single Han chars alone). */
export function demoTokens(text: string): string[] {
  const tokens: string[] = [];
  for (const match of text.toLowerCase().matchAll(/[\p{Script=Han}]+|[\p{L}\p{N}]+/gu)) {
    const run = match[0];
    if (HAN.test(run[0]!)) {
      const chars = [...run];
      if (chars.length === 1) tokens.push(run);
      for (let i = 0; i + 1 < chars.length; i++) tokens.push(chars[i]! + chars[i + 1]!);
    } else if (run.length >= 2) {
      tokens.push(run);
    }
  }
  return tokens;
}

/** Scores texts against a query; returns indexes of matching texts, best first. */
export function rankByKeywords(query: string, texts: string[]): { index: number; score: number }[] {
  const queryTokens = [...new Set(demoTokens(query))];
  if (queryTokens.length === 0) return [];
  const tokenised = texts.map((text) => demoTokens(text));
  const documentFrequency = new Map<string, number>();
  for (const tokens of tokenised) for (const token of new Set(tokens)) documentFrequency.set(token, (documentFrequency.get(token) ?? 0) + 1);
  const scored: { index: number; score: number }[] = [];
  tokenised.forEach((tokens, index) => {
    let score = 0;
    for (const token of queryTokens) {
      const tf = tokens.filter((candidate) => candidate === token).length;
      if (tf === 0) continue;
      const idf = Math.log(1 + texts.length / (documentFrequency.get(token) ?? 1));
      score += (1 + Math.log(tf)) * idf;
    }
    if (score > 0) scored.push({ index, score });
  });
  return scored.sort((a, b) => b.score - a.score || a.index - b.index);
}
