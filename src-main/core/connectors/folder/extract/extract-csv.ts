/**
 * CSV and TSV through csv-parse (maintained; quotes, escaped quotes and line breaks inside cells):
 * Markdown tables of a few rows with the header repeated (sheet-tables.ts), rows located by their
 * record number (a quoted cell may span lines). The delimiter is a tab for .tsv; for .csv, the one of `,` `;` `\t` that the
 * first line uses most (Excel writes `;` in many locales).
 */
import { parse } from 'csv-parse/sync';
import type { LocatedPart } from '../../connector';
import { decodeUtf8 } from '../../../text/normalize';
import { fileFailure, TextBudget, type Extracted, type ExtractContext } from './extracted';
import { SheetTables } from './sheet-tables';

export async function extractCsv(bytes: Buffer, context: ExtractContext): Promise<Extracted> {
  const text = decodeUtf8(bytes).text;
  const delimiter = /\.tsv$/i.test(context.externalId) ? '\t' : sniffDelimiter(text);
  let rows: string[][];
  try {
    rows = parse(text, {
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      bom: true,
    }) as string[][];
  } catch (error) {
    throw fileFailure(
      'folder.corrupt',
      `${context.externalId} is not readable CSV: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  const parts: LocatedPart[] = [];
  const name = context.externalId.split('/').pop() ?? context.externalId;
  const tables = new SheetTables(name, false, parts, new TextBudget(context));
  rows.forEach((cells, index) => tables.add({ number: index + 1, cells }));
  tables.end();
  return { parts };
}

function sniffDelimiter(text: string): string {
  const firstLine = text.slice(0, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n'));
  const counts = [',', ';', '\t'].map((d) => [d, firstLine.split(d).length - 1] as const);
  counts.sort((a, b) => b[1] - a[1]);
  return counts[0]![1] > 0 ? counts[0]![0] : ',';
}
