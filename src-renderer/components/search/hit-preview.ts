/**
 * What a search hit shows of its chunk: the text without Markdown syntax (heading marks, code
 * fences, table rules and pipes, list bullets, emphasis, link targets), on one line, starting a
 * little before the first match so a match deep in a long chunk is not clipped away.
 */
const LEAD_CHARS = 60;

function plainLine(line: string): string | null {
  const trimmed = line.trim();
  if (/^(`{3,}|~{3,})/.test(trimmed)) return null; // code fence
  if (/^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?$/.test(trimmed)) return null; // table rule
  let text = trimmed
    .replace(/^#{1,6}\s+/, '')
    .replace(/^>\s?/, '')
    .replace(/^([-*+]|\d+[.)])\s+/, '');
  if (/^\|.*\|$/.test(text))
    text = text
      .slice(1, -1)
      .split('|')
      .map((cell) => cell.trim())
      .join(' · ');
  return (
    text
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/(\*\*|__|~~|`)/g, '')
      // Single-star emphasis; single underscores are left alone, they are too often part of a name (rate_limit).
      .replace(/(^|[^\p{L}\p{N}*])\*(?=\S)([^*\n]*?\S)\*(?![\p{L}\p{N}*])/gu, '$1$2')
  );
}

export function hitPreview(markdown: string, terms: string[]): string {
  const text = markdown
    .split('\n')
    .map(plainLine)
    .filter((line): line is string => line !== null && line !== '')
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  const lower = text.toLowerCase();
  const first = Math.min(
    ...terms.map((term) => lower.indexOf(term.toLowerCase())).filter((index) => index >= 0),
  );
  if (!Number.isFinite(first) || first <= LEAD_CHARS * 2) return text;
  // Start on a word (or, in CJK text, any character) boundary about LEAD_CHARS before the match.
  const from = text.lastIndexOf(' ', first - LEAD_CHARS);
  const start = from > 0 && first - from < LEAD_CHARS * 2 ? from + 1 : first - LEAD_CHARS;
  return `…${text.slice(start)}`;
}
