/**
 * Turns a Yuque doc detail into Markdown from whichever documented field carries its text, so a
 * lake document is never indexed empty (docs/connectors.md "Yuque bodies"):
 * 1. `body_sheet` (Sheet) and `body_table` (Table, paged by the caller) as Markdown tables;
 * 2. `body` when it holds text: the spec calls it "正文原始内容" (the raw body); for markdown and
 *    lake documents it carries Markdown in production (Tencent/WeKnora "empirically verified against
 *    the v2 API"; FastGPT and langchain's YuqueLoader read `body` for every document) [third-party];
 *    a body that is Lake or HTML markup is converted instead of being indexed as markup;
 * 3. `body_html` (HTML) converted with turndown (a maintained HTML→Markdown library);
 * 4. `body_lake` (Lake XML: HTML-like elements with `<card>` embeds) converted the same way.
 */
import { htmlToMarkdown } from '../../text/html-markdown';
import { CairnError } from '../../errors';
import type { YuqueDocDetail } from './yuque-schemas';
import { sheetToMarkdown } from './yuque-tables';

const LAKE_DOCTYPE = /^\s*<!doctype lake>/i;

/** Lake markup is HTML-like: drop the doctype and the `<card>` embeds, then convert as HTML. */
function lakeToMarkdown(lake: string): string {
  return htmlToMarkdown(lake.replace(LAKE_DOCTYPE, ''));
}

function hasText(markdown: string): boolean {
  return markdown.replace(/[\s#>*_`|-]/g, '') !== '';
}

/** `body` as Markdown: markup (Lake or HTML) is converted; Markdown is taken as it is. */
function bodyToMarkdown(detail: YuqueDocDetail): string | null {
  const body = detail.body ?? '';
  if (!body.trim()) return null;
  if (LAKE_DOCTYPE.test(body)) return lakeToMarkdown(body);
  if (detail.format === 'html' || detail.type === 'HtmlDoc') return htmlToMarkdown(body);
  return body;
}

/**
 * Markdown for a doc detail. `tables` is the data table already paged by the caller (Table docs);
 * throws UNSUPPORTED when no documented field carries any text.
 */
export function yuqueDocToMarkdown(detail: YuqueDocDetail, tables: string | null = null): string {
  const candidates: (() => string | null)[] = [
    () => (detail.body_sheet ? sheetToMarkdown(detail.body_sheet) : null),
    () => tables,
    () => bodyToMarkdown(detail),
    () => (detail.body_html?.trim() ? htmlToMarkdown(detail.body_html) : null),
    () => (detail.body_lake?.trim() ? lakeToMarkdown(detail.body_lake) : null),
  ];
  for (const candidate of candidates) {
    const markdown = candidate();
    if (markdown !== null && hasText(markdown)) return markdown;
  }
  const bodies = [detail.body, detail.body_html, detail.body_lake, detail.body_sheet, detail.body_table];
  // Bodies present, and not one with text in any of them: an empty document, indexed by its title.
  if (bodies.some((body) => typeof body === 'string')) return '';
  throw new CairnError(
    'UNSUPPORTED',
    `Yuque ${detail.type ?? 'document'} "${detail.title ?? detail.id ?? ''}" came back without any text Cairn can read (format ${detail.format ?? 'unknown'}).`,
  );
}
