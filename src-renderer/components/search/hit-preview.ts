/**
 * What a search hit shows of its chunk: the text without Markdown syntax (heading marks, code
 * fences, table rules and pipes, list bullets, emphasis, link targets), on one line, starting a
 * little before the first match so a match deep in a long chunk is not clipped away.
 */
import { plainHeading } from '@shared/plain-heading';

const LEAD_CHARS = 60;
/** What ends a heading inside a one-line snippet ("Approval — The manager signs…"). */
const HEADING_END = ' —';

/** `leading`: no text came before this line (a heading there heads the whole snippet). */
function plainLine(line: string, shown: Set<string>, leading: boolean): string | null {
  const trimmed = line.trim();
  // A leading heading the card already shows (the title, the heading path) would be said twice.
  const heading = /^#{1,6}\s+(.*?)\s*#*$/.exec(trimmed);
  if (heading && leading && shown.has(normalizeHeading(heading[1]!))) return null;
  // Any other heading is set off from the text it heads, so the two do not run together.
  if (heading) return heading[1] ? `${plainHeading(heading[1])}${HEADING_END}` : null;
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

function normalizeHeading(text: string): string {
  return plainHeading(text).toLowerCase();
}

/**
 * The heading path a card shows under its title: without a first heading that only repeats the
 * title (a note's H1 usually is its title), " › " between levels; null when nothing is left.
 */
export function headingTrail(path: string, title: string): string | null {
  const parts = path.split(' > ').map(plainHeading).filter(Boolean);
  if (parts.length > 0 && normalizeHeading(parts[0]!) === normalizeHeading(title)) parts.shift();
  return parts.length > 0 ? parts.join(' › ') : null;
}

/**
 * `shown`: what the card already shows above the passage (title, heading path); a heading line
 * of the passage equal to one of them is left out.
 */
export function hitPreview(markdown: string, terms: string[], shown: string[] = []): string {
  const known = new Set(shown.flatMap((text) => text.split(' > ')).map(normalizeHeading));
  let leading = true;
  const lines: string[] = [];
  for (const line of markdown.split('\n')) {
    const plain = plainLine(line, known, leading);
    if (plain === null || plain === '') continue;
    lines.push(plain);
    if (!plain.endsWith(HEADING_END)) leading = false;
  }
  const text = lines
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(new RegExp(`${HEADING_END}$`), '');
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

/**
 * Where the card's passage starts in the chunk: its first query term (the preview starts just
 * before it), else the chunk's start. Its heading path is read there (shared/heading-at.ts).
 */
export function passageOffset(markdown: string, terms: string[]): number {
  const lower = markdown.toLowerCase();
  const found = terms.map((term) => lower.indexOf(term.toLowerCase())).filter((at) => at >= 0);
  return found.length > 0 ? Math.min(...found) : 0;
}
