/**
 * Yuque's table-like documents as Markdown pipe tables. Both bodies are JSON strings described in
 * the official spec's V2DocDetail (../shared/yuque-openapi.json):
 * - `body_sheet` (type Sheet): `{version, data: [{name, index, rowCount, colCount, table: string[][]}]}`,
 *   every value a string, formulas already computed.
 * - `body_table` (type Table, "数据表"): `{totalCount, records: [{values: [{value}], createdAt, updatedAt}],
 *   pageSize, page}`, values in the order of the columns, a value being text, "true"/"false", a list
 *   of option ids, files or users (objects with `name`), or a date `{seconds, text, time}`. The spec
 *   names no column titles (it refers to "meta.columns", which no documented response carries), so
 *   titles are used when a `meta.columns`/`columns` list is present and numbered otherwise.
 */
import { z } from 'zod';
import { cellText, markdownTable } from '../../text/html-markdown';

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const Sheet = z.object({
  data: z
    .array(z.object({ name: z.unknown(), table: z.array(z.array(z.unknown())).nullish() }).passthrough())
    .nullish(),
});

/** The sheets of a `body_sheet` as `## name` + table, or null when it holds no cells. */
export function sheetToMarkdown(bodySheet: string): string | null {
  const parsed = Sheet.safeParse(parseJson(bodySheet));
  if (!parsed.success) return null;
  const sheets = (parsed.data.data ?? []).filter((sheet) => (sheet.table?.length ?? 0) > 0);
  if (sheets.length === 0) return null;
  return (
    sheets
      .map((sheet) => {
        const name = typeof sheet.name === 'string' && sheet.name ? sheet.name : 'Sheet';
        const rows = sheet.table!.map((row) => row.map((cell) => cellText(valueText(cell))));
        return `## ${name}\n\n${markdownTable(rows)}`;
      })
      .join('\n\n') + '\n'
  );
}

/** One cell of either body as text: strings as they are, lists joined, objects by their label. */
function valueText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(valueText).filter(Boolean).join(', ');
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of ['text', 'name', 'title', 'value'])
      if (typeof record[key] === 'string' && record[key]) return record[key] as string;
  }
  return '';
}

const TablePage = z.object({
  totalCount: z.number().nullish(),
  page: z.number().nullish(),
  pageSize: z.number().nullish(),
  records: z.array(z.object({ values: z.array(z.unknown()).nullish() }).passthrough()).nullish(),
  columns: z.array(z.unknown()).nullish(),
  meta: z
    .object({ columns: z.array(z.unknown()).nullish() })
    .passthrough()
    .nullish(),
});
export type TablePage = z.infer<typeof TablePage>;

/** One page of a `body_table`, or null when the body is not the documented JSON. */
export function parseTablePage(bodyTable: string): TablePage | null {
  const parsed = TablePage.safeParse(parseJson(bodyTable));
  return parsed.success ? parsed.data : null;
}

/** Pages of a data table (in order) as one Markdown table; null when there are no rows. */
export function tablePagesToMarkdown(pages: TablePage[]): string | null {
  const rows = pages.flatMap((page) =>
    (page.records ?? []).map((record) =>
      (record.values ?? []).map((cell) => {
        const inner =
          cell !== null && typeof cell === 'object' && 'value' in cell
            ? (cell as { value: unknown }).value
            : cell;
        return cellText(valueText(inner));
      }),
    ),
  );
  if (rows.length === 0) return null;
  const width = Math.max(...rows.map((row) => row.length));
  const named = pages[0]?.meta?.columns ?? pages[0]?.columns ?? [];
  const header = Array.from({ length: width }, (_, i) => cellText(valueText(named[i])) || `Column ${i + 1}`);
  return markdownTable([header, ...rows]) + '\n';
}
