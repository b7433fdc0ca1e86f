/**
 * Turns a Yuque doc detail into Markdown: the Markdown body where there is one, else the HTML body
 * converted with turndown (a maintained HTML→Markdown library), else the sheet body as tables.
 * Lake/HTML bodies are not confirmed to be clean Markdown (connectors.md §2.3), so only
 * `format: markdown` bodies are trusted as-is.
 */
import TurndownService from 'turndown';
import { CairnError } from '../../errors';

export interface YuqueDocDetail {
  id: number;
  type?: string;
  title?: string;
  format?: string;
  body?: string | null;
  body_html?: string | null;
  body_sheet?: string | null;
}

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
  service.remove(['style', 'script', 'meta'] as never);
  // Core turndown drops table structure; GFM pipe tables keep rows and columns searchable.
  service.addRule('gfm-table', {
    filter: 'table',
    replacement: (_content, node) => '\n\n' + tableToMarkdown(node as unknown as ElementLike) + '\n\n',
  });
  return service;
}

function cellText(text: string | null): string {
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

/** Yuque sheets carry their cells as a JSON string in body_sheet (see the V2DocDetail schema). */
function sheetToMarkdown(bodySheet: string): string | null {
  try {
    const parsed = JSON.parse(bodySheet) as { data?: { name?: string; table?: unknown[][] }[] };
    const sheets = (parsed.data ?? []).filter(
      (sheet) => Array.isArray(sheet.table) && sheet.table.length > 0,
    );
    if (sheets.length === 0) return null;
    return (
      sheets
        .map(
          (sheet) =>
            `## ${sheet.name ?? 'Sheet'}\n\n${markdownTable(sheet.table!.map((row) => row.map((cell) => cellText(String(cell ?? '')))))}`,
        )
        .join('\n\n') + '\n'
    );
  } catch {
    return null;
  }
}

export function yuqueDocToMarkdown(detail: YuqueDocDetail): string {
  const body = detail.body?.trim() ?? '';
  if (detail.format === 'markdown' && body) return detail.body!;
  if (detail.body_sheet) {
    const sheet = sheetToMarkdown(detail.body_sheet);
    if (sheet) return sheet;
  }
  if (detail.body_html?.trim()) return htmlToMarkdown(detail.body_html);
  // A non-Markdown body that is not lake markup is still better than nothing.
  if (body && !/^<!doctype lake>/i.test(body)) return detail.body!;
  const kind = detail.type ?? 'document';
  throw new CairnError(
    'UNSUPPORTED',
    `Yuque ${kind} "${detail.title ?? detail.id}" has no text the API can export (format ${detail.format ?? 'unknown'}); it is skipped.`,
  );
}
