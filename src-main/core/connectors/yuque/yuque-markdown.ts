/**
 * Turns a Yuque doc detail into Markdown: the Markdown body where there is one, else the HTML body
 * converted with turndown (a maintained HTML→Markdown library), else the sheet body as tables.
 * Lake/HTML bodies are not confirmed to be clean Markdown (connectors.md §2.3), so only
 * `format: markdown` bodies are trusted as-is.
 */
import { cellText, htmlToMarkdown, markdownTable } from '../../text/html-markdown';
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
