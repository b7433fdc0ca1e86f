/**
 * Finds GFM pipe tables (https://github.github.com/gfm/#tables-extension-) in a Markdown passage
 * so a quote can show them as tables. react-markdown parses CommonMark only; remark-gfm would
 * parse tables itself (asked for in docs/decisions/grouped-results-and-readable-quotes.md);
 * until then this covers the common shape: a header row, a delimiter row, body rows up to the
 * first line without a pipe. Fenced code is never read as a table.
 */
export type QuoteBlock = { kind: 'markdown'; text: string } | { kind: 'table'; header: string[]; rows: string[][] };

const DELIMITER_ROW = /^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?$/;
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/** The cells of one table row: split on pipes that are not escaped (`\|` is a literal pipe). */
export function tableCells(line: string): string[] {
  const trimmed = line.trim().replace(/^\|/, '').replace(/(?<!\\)\|$/, '');
  return trimmed.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

export function splitPipeTables(markdown: string): QuoteBlock[] {
  const lines = markdown.split('\n');
  const blocks: QuoteBlock[] = [];
  let prose: string[] = [];
  let fence: string | null = null;
  const flush = () => {
    if (prose.some((line) => line.trim())) blocks.push({ kind: 'markdown', text: prose.join('\n') });
    prose = [];
  };
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    const marker = FENCE.exec(line)?.[1];
    if (marker && (!fence || marker.startsWith(fence))) fence = fence ? null : marker;
    const next = lines[i + 1];
    if (!fence && !marker && line.includes('|') && next !== undefined && next.includes('-') && DELIMITER_ROW.test(next.trim())) {
      const header = tableCells(line);
      if (tableCells(next).length === header.length) {
        flush();
        const rows: string[][] = [];
        i += 2;
        while (i < lines.length && lines[i]!.includes('|') && lines[i]!.trim()) rows.push(tableCells(lines[i++]!));
        i -= 1;
        blocks.push({ kind: 'table', header, rows });
        continue;
      }
    }
    prose.push(line);
  }
  flush();
  return blocks;
}
