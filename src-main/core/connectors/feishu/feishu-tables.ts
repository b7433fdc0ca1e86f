/**
 * Spreadsheets and bitables as Markdown tables, through the official APIs that return their
 * content (docs/connectors.md "Feishu node types"):
 * - sheet: "获取工作表" GET /open-apis/sheets/v3/spreadsheets/:token/sheets/query lists the sheets
 *   (resource_type sheet, bitable or #UNSUPPORTED_TYPE); "读取单个范围" GET
 *   /open-apis/sheets/v2/spreadsheets/:token/values/:range with the bare sheet id as the range reads a
 *   whole sheet (as the official CLI's `sheets +read` does), valueRenderOption=ToString for text;
 * - bitable: "列出数据表" GET /open-apis/bitable/v1/apps/:app_token/tables, then "查询记录" POST
 *   …/tables/:table_id/records/search (page_size ≤ 500), each record's `fields` map giving the columns.
 */
import type { DocumentNotice } from '../connector';
import type { FeishuGet, FeishuPost } from './feishu-listing';
import { BitableRecords, BitableTables, SheetValues, SheetsQuery } from './feishu-schemas';

export interface FeishuTableAccess {
  get: FeishuGet;
  post: FeishuPost;
}

/** At most this many bitable record pages (500 each) per table. */
const MAX_RECORD_PAGES = 40;
const RECORD_PAGE_SIZE = 500;
/** The rows a table can give before the cap (20,000). */
export const MAX_BITABLE_ROWS = MAX_RECORD_PAGES * RECORD_PAGE_SIZE;

function cell(value: unknown): string {
  return cellText(value).replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');
}

/** A sheet value or bitable field as text: text segments, links, people, options and numbers all reduce to words. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(cellText).filter(Boolean).join(', ');
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of ['text', 'name', 'link', 'value', 'en_name'])
      if (record[key] !== undefined && record[key] !== null) return cellText(record[key]);
  }
  return '';
}

function table(rows: string[][]): string {
  const width = Math.max(0, ...rows.map((row) => row.length));
  if (rows.length === 0 || width === 0) return '';
  const line = (row: string[]) => `| ${Array.from({ length: width }, (_, i) => row[i] ?? '').join(' | ')} |`;
  return [line(rows[0]!), line(Array.from({ length: width }, () => '---')), ...rows.slice(1).map(line)].join(
    '\n',
  );
}

/** Drops trailing empty rows and columns a sheet's used range carries. */
function trimmed(rows: string[][]): string[][] {
  const kept = rows.filter((row) => row.some((value) => value !== ''));
  const width = Math.max(0, ...kept.map((row) => row.reduce((last, value, i) => (value ? i + 1 : last), 0)));
  return kept.map((row) => row.slice(0, width));
}

export async function sheetToMarkdown(
  access: FeishuTableAccess,
  token: string,
  signal?: AbortSignal,
): Promise<string> {
  const id = encodeURIComponent(token);
  const { sheets } = await access.get(
    'GET /open-apis/sheets/v3/spreadsheets/:spreadsheet_token/sheets/query',
    `/open-apis/sheets/v3/spreadsheets/${id}/sheets/query`,
    {},
    SheetsQuery,
    signal,
  );
  const parts: string[] = [];
  for (const sheet of sheets ?? []) {
    if (sheet.hidden || (sheet.resource_type && sheet.resource_type !== 'sheet')) continue;
    const values = await access.get(
      'GET /open-apis/sheets/v2/spreadsheets/:spreadsheetToken/values/:range',
      `/open-apis/sheets/v2/spreadsheets/${id}/values/${encodeURIComponent(sheet.sheet_id)}`,
      { valueRenderOption: 'ToString' },
      SheetValues,
      signal,
    );
    const rows = trimmed((values.valueRange?.values ?? []).map((row) => (row ?? []).map(cell)));
    if (rows.length > 0) parts.push(`## ${sheet.title || sheet.sheet_id}\n\n${table(rows)}`);
  }
  return parts.length === 0 ? '' : `${parts.join('\n\n')}\n`;
}

/**
 * A bitable as Markdown tables, with a notice when it gave less than it holds: a table that answered
 * with no records ("查询记录": under advanced permissions the call may succeed and return no data),
 * or one cut at MAX_BITABLE_ROWS.
 */
export async function bitableToMarkdown(
  access: FeishuTableAccess,
  appToken: string,
  signal?: AbortSignal,
): Promise<{ markdown: string; notice?: DocumentNotice }> {
  const app = encodeURIComponent(appToken);
  const tables: { table_id: string; name?: string | null }[] = [];
  for (let pageToken: string | undefined, first = true; first || pageToken; first = false) {
    const page = await access.get(
      'GET /open-apis/bitable/v1/apps/:app_token/tables',
      `/open-apis/bitable/v1/apps/${app}/tables`,
      { page_size: 100, page_token: pageToken },
      BitableTables,
      signal,
    );
    tables.push(...(page.items ?? []));
    pageToken =
      page.has_more && page.page_token && page.page_token !== pageToken ? page.page_token : undefined;
  }
  const parts: string[] = [];
  const empty: string[] = [];
  const truncated: string[] = [];
  for (const { table_id: tableId, name } of tables) {
    const records: Record<string, unknown>[] = [];
    let pageToken: string | undefined;
    let more = false;
    for (let n = 0; n < MAX_RECORD_PAGES; n++) {
      const page = await access.post(
        'POST /open-apis/bitable/v1/apps/:app_token/tables/:table_id/records/search',
        `/open-apis/bitable/v1/apps/${app}/tables/${encodeURIComponent(tableId)}/records/search`,
        { page_size: RECORD_PAGE_SIZE, page_token: pageToken },
        {},
        BitableRecords,
        signal,
      );
      records.push(...(page.items ?? []).map((record) => record.fields ?? {}));
      more = Boolean(page.has_more && page.page_token && page.page_token !== pageToken);
      if (!more) break;
      pageToken = page.page_token ?? undefined;
    }
    const label = name || tableId;
    if (more) truncated.push(label);
    const columns = [...new Set(records.flatMap((fields) => Object.keys(fields)))];
    if (records.length === 0 || columns.length === 0) {
      empty.push(label);
      continue;
    }
    const rows = [
      columns.map((c) => cell(c)),
      ...records.map((fields) => columns.map((c) => cell(fields[c]))),
    ];
    parts.push(`## ${label}\n\n${table(rows)}`);
  }
  const markdown = parts.length === 0 ? '' : `${parts.join('\n\n')}\n`;
  return { markdown, ...bitableNotice(empty, truncated) };
}

function bitableNotice(empty: string[], truncated: string[]): { notice?: DocumentNotice } {
  const rows = MAX_BITABLE_ROWS.toLocaleString('en');
  if (truncated.length > 0)
    return {
      notice: {
        reason: 'feishu.bitable-truncated',
        message: `Only the first ${rows} rows of ${truncated.map((t) => `"${t}"`).join(', ')} were indexed (Cairn reads at most ${rows} rows per table).`,
        params: { tables: truncated.join(', '), rows },
      },
    };
  if (empty.length > 0)
    return {
      notice: {
        reason: 'feishu.bitable-no-rows',
        message: `${empty.map((t) => `"${t}"`).join(', ')} returned no rows. If the bitable has advanced permissions, Feishu answers with no data unless the app (or you) may manage it: add the app as a collaborator with manage rights.`,
        params: { tables: empty.join(', ') },
      },
    };
  return {};
}
