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
  return turndown().turndown(html).trim() + '\n';
}
