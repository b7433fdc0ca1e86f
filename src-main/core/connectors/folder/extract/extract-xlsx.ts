/**
 * Excel (.xlsx) through ExcelJS's streaming reader (maintained, reads from disk row by row: a big
 * workbook never sits in memory as one object): each sheet becomes Markdown tables of a few rows
 * with the header repeated (sheet-tables.ts). Formulas give their cached result, rich text its
 * plain text, dates an ISO date. Cannot: .xls (the old binary format), charts, images, comments.
 */
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { throwIfAborted } from '../../../errors';
import type { LocatedPart } from '../../connector';
import { CairnError } from '../../../errors';
import { fileFailure, TextBudget, type Extracted, type ExtractContext } from './extracted';
import { SheetTables } from './sheet-tables';
import { checkZipPackage } from './zip-limits';

export async function extractXlsx(bytes: Buffer, context: ExtractContext): Promise<Extracted> {
  // Shared strings are cached whole and every sheet is inflated: the sizes are checked first, and
  // the reader reads the very bytes that were checked (not the path, which may have changed since).
  await checkZipPackage(bytes, context, { kind: 'Excel workbook' });
  const parts: LocatedPart[] = [];
  const budget = new TextBudget(context);
  try {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([bytes]), {
      sharedStrings: 'cache',
      hyperlinks: 'ignore',
      styles: 'cache',
      worksheets: 'emit',
      entries: 'ignore',
    });
    for await (const worksheet of reader) {
      const name = (worksheet as unknown as { name?: string }).name ?? 'Sheet';
      const tables = new SheetTables(name, true, parts, budget);
      for await (const row of worksheet) {
        throwIfAborted(context.signal);
        const values = Array.isArray(row.values) ? row.values.slice(1) : [];
        tables.add({ number: row.number, cells: values.map(cellValue) });
      }
      tables.end();
    }
  } catch (error) {
    // A cancel, or the text limit: not a damaged workbook.
    if (error instanceof CairnError || (error as { code?: string }).code === 'CANCELLED') throw error;
    throw fileFailure(
      'folder.corrupt',
      `${context.externalId} is not a readable Excel workbook: ${(error as Error).message}`,
      { cause: error },
    );
  }
  return { parts };
}

function cellValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date)
    return Number.isNaN(value.getTime()) ? '' : value.toISOString().replace(/T00:00:00\.000Z$/, '');
  if (typeof value !== 'object') return String(value);
  const cell = value as {
    richText?: { text?: string }[];
    result?: unknown;
    text?: unknown;
    error?: string;
    formula?: string;
  };
  if (Array.isArray(cell.richText)) return cell.richText.map((run) => run.text ?? '').join('');
  if ('result' in cell) return cellValue(cell.result);
  if (cell.text !== undefined) return cellValue(cell.text);
  if (cell.error) return cell.error;
  return '';
}
