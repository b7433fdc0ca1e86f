/**
 * A line-based scanner for the block structure the chunker needs: headings (ATX and setext),
 * fenced code, GFM tables, front matter, list items and paragraphs, each with exact offsets.
 * It follows CommonMark where it matters for chunking (https://spec.commonmark.org/0.31.2/)
 * and is deliberately not a full parser: mdast-util-from-markdown took ~10 s on a 5 MB document
 * here and has no GFM tables, while this runs in one linear pass.
 */

export type BlockKind = 'heading' | 'code' | 'table' | 'front-matter' | 'list-item' | 'paragraph';

export interface MarkdownBlock {
  kind: BlockKind;
  /** Offset of the block's first character. */
  start: number;
  /** Offset just past the block's last non-newline character (the line break is not included). */
  end: number;
  /** Headings only: 1-6. */
  headingLevel?: number;
  /** Headings only: the heading text as written (inline Markdown and HTML kept verbatim). */
  headingTitle?: string;
}

interface Line {
  start: number;
  /** End of the line's content, excluding "\n" and a trailing "\r". */
  end: number;
  /** Offset where the next line starts (source.length after the last line). */
  next: number;
  content: string;
}

const ATX_HEADING_OPEN = /^ {0,3}(#{1,6})(?=[ \t]|$)/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const LIST_ITEM = /^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
const TABLE_DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const FRONT_MATTER_OPEN = /^---[ \t]*$/;
const FRONT_MATTER_CLOSE = /^(?:---|\.\.\.)[ \t]*$/;

function readLine(source: string, start: number): Line {
  const newline = source.indexOf('\n', start);
  const next = newline === -1 ? source.length : newline + 1;
  let end = newline === -1 ? source.length : newline;
  if (end > start && source.charCodeAt(end - 1) === 13) end--;
  return { start, end, next, content: source.slice(start, end) };
}

function isBlank(content: string): boolean {
  return content.trim() === '';
}

/** A closing fence uses the opening character, at least as many times, and nothing else. */
function closesFence(content: string, fence: string): boolean {
  const trimmed = content.replace(/^ {0,3}/, '').trimEnd();
  return trimmed.length >= fence.length && trimmed === fence[0]!.repeat(trimmed.length);
}

/** GFM delimiter row (https://github.github.com/gfm/#tables-extension-); we require a pipe so "---" stays setext. */
function isTableDelimiter(content: string): boolean {
  return content.includes('|') && TABLE_DELIMITER.test(content);
}

/** Ends a fenced block: at its closing fence, or at the end of the document when it is never closed. */
function scanFence(source: string, open: Line, fence: string): MarkdownBlock {
  let end = open.end;
  for (let pos = open.next; pos < source.length;) {
    const line = readLine(source, pos);
    end = line.end;
    if (closesFence(line.content, fence)) break;
    pos = line.next;
  }
  return { kind: 'code', start: open.start, end };
}

/** YAML front matter (Obsidian, Jekyll, Hugo): only at offset 0, and only when it is closed. */
function scanFrontMatter(source: string): MarkdownBlock | undefined {
  const first = readLine(source, 0);
  if (!FRONT_MATTER_OPEN.test(first.content)) return undefined;
  for (let pos = first.next; pos < source.length;) {
    const line = readLine(source, pos);
    if (FRONT_MATTER_CLOSE.test(line.content)) return { kind: 'front-matter', start: 0, end: line.end };
    pos = line.next;
  }
  return undefined;
}

/** ATX heading: 1-6 "#" then a space or the end; an optional closing run of "#" is not part of the title. */
function parseAtxHeading(content: string): { level: number; title: string } | undefined {
  const open = ATX_HEADING_OPEN.exec(content);
  if (!open) return undefined;
  let title = content.slice(open[0].length).trim();
  let end = title.length;
  while (end > 0 && title[end - 1] === '#') end--;
  if (end === 0 || title[end - 1] === ' ' || title[end - 1] === '\t') title = title.slice(0, end);
  return { level: open[1]!.length, title: headingTitle(title) };
}

/** Longest heading title kept in a heading path; every chunk of the section repeats the path. */
export const MAX_HEADING_TITLE = 200;

function headingTitle(lines: string): string {
  const title = lines.replace(/\s+/g, ' ').trim();
  if (title.length <= MAX_HEADING_TITLE) return title;
  const code = title.charCodeAt(MAX_HEADING_TITLE - 2);
  const keep = code >= 0xd800 && code <= 0xdbff ? MAX_HEADING_TITLE - 2 : MAX_HEADING_TITLE - 1;
  return `${title.slice(0, keep)}…`;
}

/** Splits Markdown into blocks in source order; blank lines belong to no block. Linear time. */
export function scanMarkdownBlocks(source: string): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = [];
  // The open paragraph or list item that following non-blank lines continue (lazy continuation).
  let open: MarkdownBlock | undefined;
  const close = (): void => {
    if (open) blocks.push(open);
    open = undefined;
  };

  let pos = 0;
  const frontMatter = scanFrontMatter(source);
  if (frontMatter) {
    blocks.push(frontMatter);
    pos = readLine(source, frontMatter.end).next;
  }

  while (pos < source.length) {
    const line = readLine(source, pos);
    const { content } = line;
    pos = line.next;
    if (isBlank(content)) {
      close();
      continue;
    }

    const fence = FENCE_OPEN.exec(content);
    if (fence && !(fence[1]![0] === '`' && fence[2]!.includes('`'))) {
      close();
      const block = scanFence(source, line, fence[1]!);
      blocks.push(block);
      pos = readLine(source, block.end).next;
      continue;
    }

    const atx = parseAtxHeading(content);
    if (atx) {
      close();
      blocks.push({
        kind: 'heading',
        start: line.start,
        end: line.end,
        headingLevel: atx.level,
        headingTitle: atx.title,
      });
      continue;
    }

    const setext = SETEXT_UNDERLINE.exec(content);
    if (setext && open?.kind === 'paragraph') {
      const title = headingTitle(source.slice(open.start, open.end));
      blocks.push({
        kind: 'heading',
        start: open.start,
        end: line.end,
        headingLevel: setext[1]![0] === '=' ? 1 : 2,
        headingTitle: title,
      });
      open = undefined;
      continue;
    }

    if (THEMATIC_BREAK.test(content)) {
      close();
      blocks.push({ kind: 'paragraph', start: line.start, end: line.end });
      continue;
    }

    if (content.includes('|') && pos < source.length) {
      const delimiter = readLine(source, pos);
      if (isTableDelimiter(delimiter.content)) {
        close();
        let end = delimiter.end;
        pos = delimiter.next;
        while (pos < source.length) {
          const row = readLine(source, pos);
          if (isBlank(row.content) || FENCE_OPEN.test(row.content) || ATX_HEADING_OPEN.test(row.content))
            break;
          end = row.end;
          pos = row.next;
        }
        blocks.push({ kind: 'table', start: line.start, end });
        continue;
      }
    }

    if (LIST_ITEM.test(content)) {
      close();
      open = { kind: 'list-item', start: line.start, end: line.end };
      continue;
    }

    if (open) open.end = line.end;
    else open = { kind: 'paragraph', start: line.start, end: line.end };
  }
  close();
  return blocks;
}
