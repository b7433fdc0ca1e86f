/**
 * HTML to Markdown with turndown (a maintained converter), shared by every source that gets HTML:
 * Yuque bodies, Word files (through mammoth), web pages and EPUB chapters in local folders.
 * Scripts, styles and other non-content elements are dropped; tables become GFM pipe tables so
 * rows and columns stay searchable.
 */
import TurndownService from 'turndown';

/** The bits of a DOM element the table rule reads (turndown's types need the DOM lib, which core does not load). */
interface ElementLike {
  querySelectorAll(selector: string): ArrayLike<{
    textContent: string | null;
    querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }>;
  }>;
}

let service: TurndownService | undefined;

function turndown(): TurndownService {
  if (service) return service;
  service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
  });
  service.remove([
    'style',
    'script',
    'meta',
    'noscript',
    'template',
    'iframe',
    'object',
    'svg',
    'head',
    // Yuque Lake's <card> elements are embeds (images, diagrams, mentions) whose data is an encoded attribute, not text.
    'card',
  ] as never);
  // Core turndown drops table structure; GFM pipe tables keep rows and columns searchable.
  service.addRule('gfm-table', {
    filter: 'table',
    replacement: (_content, node) => '\n\n' + tableToMarkdown(node as unknown as ElementLike) + '\n\n',
  });
  return service;
}

export function cellText(text: string | null): string {
  return (text ?? '').replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');
}

function tableToMarkdown(table: ElementLike): string {
  const rows = Array.from(table.querySelectorAll('tr'), (row) =>
    Array.from(row.querySelectorAll('th,td'), (cell) => cellText(cell.textContent)),
  );
  return markdownTable(rows.filter((row) => row.length > 0));
}

export function markdownTable(rows: string[][]): string {
  if (rows.length === 0) return '';
  const width = Math.max(...rows.map((row) => row.length));
  const pad = (row: string[]) => Array.from({ length: width }, (_, i) => row[i] ?? '');
  const line = (row: string[]) => `| ${pad(row).join(' | ')} |`;
  const [head, ...body] = rows;
  return [line(head!), line(Array.from({ length: width }, () => '---')), ...body.map(line)].join('\n');
}

export function htmlToMarkdown(html: string): string {
  return turndown().turndown(limitNesting(html)).trim() + '\n';
}

/**
 * How deep elements may nest before the deeper tags are dropped (their text kept). Real pages nest
 * a few dozen levels; the HTML parser checks the stack of open elements for every tag it meets,
 * and turndown recurses once per level, so a page nested 100,000 deep cost minutes of CPU (and
 * that again on every sync) where it now costs a linear scan.
 */
export const MAX_HTML_NESTING = 256;

/** Elements that never hold others (HTML §13.1.2 "void elements"). */
const VOID_ELEMENTS = new Set(
  'area base br col embed hr img input link meta param source track wbr'.split(' '),
);

/** Elements whose end tag may be left out: a second one opened right after the first is its sibling. */
const IMPLIED_END = new Set('p li dt dd option tr td th rb rt rp'.split(' '));

const TAG = /<!--[\s\S]*?-->|<(\/?)([a-zA-Z][\w:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;

/** `html` with the tags that open deeper than `maxDepth` (and their end tags) removed; text stays. */
export function limitNesting(html: string, maxDepth = MAX_HTML_NESTING): string {
  const open: string[] = [];
  let excess = 0;
  const kept: string[] = [];
  let from = 0;
  const drop = (start: number, end: number) => {
    kept.push(html.slice(from, start));
    from = end;
  };
  for (const match of html.matchAll(TAG)) {
    const name = match[2]?.toLowerCase();
    if (name === undefined) continue; // a comment
    const start = match.index;
    const end = start + match[0].length;
    if (match[1] === '/') {
      if (excess > 0) {
        excess -= 1;
        drop(start, end);
        continue;
      }
      const at = open.lastIndexOf(name);
      if (at !== -1) open.length = at;
      continue;
    }
    if (VOID_ELEMENTS.has(name) || (match[3] ?? '').trimEnd().endsWith('/')) continue;
    if (IMPLIED_END.has(name) && open[open.length - 1] === name) continue;
    if (open.length >= maxDepth) {
      excess += 1;
      drop(start, end);
      continue;
    }
    open.push(name);
  }
  if (from === 0) return html;
  kept.push(html.slice(from));
  return kept.join('');
}
