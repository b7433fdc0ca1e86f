/**
 * A sheet (XLSX worksheet, CSV file) as Markdown tables of a few rows each, every table with the
 * header row repeated, so each chunk of a long sheet is a table that still says what its columns
 * are, and knows its rows ("Sheet1, rows 2–31").
 */
import type { LocatedPart } from '../../connector';
import { markdownTable } from '../../../text/html-markdown';
import type { TextBudget } from './extracted';

/** Characters per row group: under the chunker's 1,500 so a group is one chunk. */
const GROUP_CHARS = 1200;
/** Longest cell text kept (a cell holding a whole essay would make one row a chunk by itself). */
const MAX_CELL_CHARS = 600;
/** Columns kept per row. */
const MAX_COLUMNS = 64;

export interface SheetRow {
  /** 1-based row number in the sheet. */
  number: number;
  cells: string[];
}

export function cellString(value: string): string {
  const flat = value.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');
  return flat.length > MAX_CELL_CHARS ? `${flat.slice(0, MAX_CELL_CHARS)}…` : flat;
}

/**
 * Builds the parts of one sheet from its rows (streamed: only one group is held). The first row
 * with any text is the header.
 */
export class SheetTables {
  private header: SheetRow | null = null;
  private group: SheetRow[] = [];
  private groupChars = 0;
  private first = true;

  constructor(
    private readonly sheet: string,
    /** Each row group of a workbook's sheet starts with the sheet's name as a heading; a CSV file's do not. */
    private readonly heading: boolean,
    private readonly out: LocatedPart[],
    /** Stops a sheet whose tables pass the file's text limit, before they are all held. */
    private readonly budget?: TextBudget,
  ) {}

  add(row: SheetRow): void {
    const cells = row.cells.slice(0, MAX_COLUMNS).map(cellString);
    while (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
    if (cells.length === 0) return;
    if (!this.header) {
      this.header = { number: row.number, cells };
      return;
    }
    const chars = cells.reduce((sum, cell) => sum + cell.length + 3, 2);
    if (this.group.length > 0 && this.groupChars + chars > GROUP_CHARS) this.flush();
    this.group.push({ number: row.number, cells });
    this.groupChars += chars;
  }

  /** Writes what is left; call once at the end of the sheet. */
  end(): void {
    if (this.header && this.group.length === 0 && this.first) {
      // A sheet with only a header row is still text worth finding.
      this.group.push({ number: this.header.number, cells: [] });
    }
    this.flush();
  }

  private flush(): void {
    if (!this.header || this.group.length === 0) return;
    const rows = this.group.filter((row) => row.cells.length > 0).map((row) => row.cells);
    const table = markdownTable([this.header.cells, ...rows]);
    // Every group is chunked on its own, so each names its sheet (its chunks' heading path).
    const title = this.heading ? `## ${this.sheet}\n\n` : '';
    this.budget?.add(title.length + table.length);
    this.out.push({
      markdown: title + table,
      location: {
        kind: 'rows',
        sheet: this.sheet,
        firstRow: this.group[0]!.number,
        lastRow: this.group[this.group.length - 1]!.number,
      },
    });
    this.first = false;
    this.group = [];
    this.groupChars = 0;
  }
}
