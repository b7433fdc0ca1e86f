/**
 * Feishu docx blocks → Markdown, the fallback for documents docs/v1/content cannot export.
 * Block type codes and fields follow the docx block data structure
 * (https://open.feishu.cn/document/server-docs/docs/docs/docx-v1/document-block/block-data-structure,
 * oapi-sdk-go docx model.go): headings, text, lists, todo, code, quote, callout, divider, tables.
 * Anything else contributes the text of its children, or nothing.
 */

export interface DocxTextElement {
  text_run?: {
    content?: string;
    text_element_style?: {
      bold?: boolean;
      italic?: boolean;
      strikethrough?: boolean;
      inline_code?: boolean;
      link?: { url?: string };
    };
  };
  mention_doc?: { title?: string; url?: string };
  mention_user?: { user_id?: string };
  equation?: { content?: string };
}

export interface DocxBlock {
  block_id: string;
  parent_id?: string;
  block_type: number;
  children?: string[];
  [field: string]: unknown;
}

const HEADING_FIRST = 3; // heading1 = 3 … heading9 = 11
const TYPE = {
  page: 1,
  text: 2,
  bullet: 12,
  ordered: 13,
  code: 14,
  quote: 15,
  equation: 16,
  todo: 17,
  callout: 19,
  divider: 22,
  table: 31,
  tableCell: 32,
  quoteContainer: 34,
} as const;

/** Code language enum of docx code blocks (a subset; unknown values render as a plain fence). */
const LANGUAGES: Record<number, string> = {
  7: 'bash',
  8: 'csharp',
  9: 'cpp',
  10: 'c',
  12: 'css',
  18: 'dockerfile',
  22: 'go',
  24: 'html',
  28: 'json',
  29: 'java',
  30: 'javascript',
  32: 'kotlin',
  39: 'markdown',
  43: 'php',
  49: 'python',
  52: 'ruby',
  53: 'rust',
  56: 'sql',
  60: 'shell',
  61: 'swift',
  63: 'typescript',
  66: 'xml',
  67: 'yaml',
};

function bodyOf(
  block: DocxBlock,
): { elements?: DocxTextElement[]; style?: Record<string, unknown> } | undefined {
  const key =
    block.block_type >= HEADING_FIRST && block.block_type <= 11
      ? `heading${block.block_type - 2}`
      : (Object.keys(block).find(
          (k) => k !== 'block_id' && k !== 'parent_id' && k !== 'block_type' && k !== 'children',
        ) ?? '');
  const body = block[key];
  return body && typeof body === 'object'
    ? (body as { elements?: DocxTextElement[]; style?: Record<string, unknown> })
    : undefined;
}

function inline(elements: DocxTextElement[] | undefined, raw = false): string {
  return (elements ?? [])
    .map((element) => {
      if (element.text_run) {
        const content = element.text_run.content ?? '';
        if (raw || !content.trim()) return content;
        // Markers must hug the text ("**a** b", not "**a **b"), so surrounding spaces stay outside.
        const [, before, core, after] = /^(\s*)([\s\S]*?)(\s*)$/.exec(content)!;
        let text = core!;
        const style = element.text_run.text_element_style ?? {};
        if (style.inline_code) text = `\`${text}\``;
        if (style.bold) text = `**${text}**`;
        if (style.italic) text = `*${text}*`;
        if (style.strikethrough) text = `~~${text}~~`;
        if (style.link?.url) text = `[${text}](${decodeURIComponent(style.link.url)})`;
        return `${before}${text}${after}`;
      }
      if (element.mention_doc)
        return element.mention_doc.url
          ? `[${element.mention_doc.title ?? 'document'}](${element.mention_doc.url})`
          : (element.mention_doc.title ?? '');
      if (element.mention_user) return '@user';
      if (element.equation) return `$${(element.equation.content ?? '').trim()}$`;
      return '';
    })
    .join('');
}

export function docxBlocksToMarkdown(blocks: DocxBlock[]): string {
  const byId = new Map(blocks.map((block) => [block.block_id, block]));
  const root =
    blocks.find((block) => block.block_type === TYPE.page) ??
    blocks.find((block) => !block.parent_id || !byId.has(block.parent_id));
  if (!root) return '';
  const childrenOf = (block: DocxBlock) =>
    (block.children ?? [])
      .map((id) => byId.get(id))
      .filter((child): child is DocxBlock => child !== undefined);
  const cellText = (cell: DocxBlock) =>
    childrenOf(cell)
      .map((child) => inline(bodyOf(child)?.elements))
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/\|/g, '\\|');

  /** Renders siblings; consecutive list items form one chunk so they stay a single list. */
  function renderSiblings(siblings: DocxBlock[], depth: number): string[] {
    const chunks: string[] = [];
    let list: string[] = [];
    let ordinal = 0;
    let listFamily: 'ordered' | 'bullet' | undefined;
    const flush = () => {
      if (list.length) chunks.push(list.join('\n'));
      list = [];
    };
    for (const block of siblings) {
      const isList =
        block.block_type === TYPE.bullet ||
        block.block_type === TYPE.ordered ||
        block.block_type === TYPE.todo;
      if (!isList) {
        flush();
        ordinal = 0;
        listFamily = undefined;
        const rendered = renderBlock(block, depth);
        if (rendered) chunks.push(rendered);
        continue;
      }
      const family = block.block_type === TYPE.ordered ? 'ordered' : 'bullet';
      if (family !== listFamily) {
        flush(); // a bullet list and a numbered list are separate lists
        ordinal = 0;
      }
      listFamily = family;
      ordinal = family === 'ordered' ? ordinal + 1 : 0;
      const indent = '  '.repeat(depth);
      const text = inline(bodyOf(block)?.elements);
      const marker =
        block.block_type === TYPE.ordered
          ? `${ordinal}.`
          : block.block_type === TYPE.todo
            ? bodyOf(block)?.style?.done
              ? '- [x]'
              : '- [ ]'
            : '-';
      list.push(`${indent}${marker} ${text}`);
      const nested = childrenOf(block);
      if (nested.length) list.push(...renderSiblings(nested, depth + 1));
    }
    flush();
    return chunks;
  }

  function renderBlock(block: DocxBlock, depth: number): string {
    const body = bodyOf(block);
    if (block.block_type >= HEADING_FIRST && block.block_type <= 11)
      return `${'#'.repeat(Math.min(6, block.block_type - 2))} ${inline(body?.elements)}`;
    switch (block.block_type) {
      case TYPE.text:
        return inline(body?.elements);
      case TYPE.code: {
        const language = LANGUAGES[Number(body?.style?.language)] ?? '';
        return '```' + language + '\n' + inline(body?.elements, true).replace(/\n$/, '') + '\n```';
      }
      case TYPE.quote:
        return `> ${inline(body?.elements)}`;
      case TYPE.equation:
        return `$$\n${inline(body?.elements, true).trim()}\n$$`;
      case TYPE.divider:
        return '---';
      case TYPE.callout:
      case TYPE.quoteContainer:
        return renderSiblings(childrenOf(block), depth)
          .join('\n\n')
          .split('\n')
          .map((line) => (line ? `> ${line}` : '>'))
          .join('\n');
      case TYPE.table: {
        const table = block.table as
          { cells?: string[]; property?: { row_size?: number; column_size?: number } } | undefined;
        const columns = table?.property?.column_size ?? 1;
        const cells = (table?.cells ?? block.children ?? [])
          .map((id) => byId.get(id))
          .map((cell) => (cell ? cellText(cell) : ''));
        const rows: string[][] = [];
        for (let i = 0; i < cells.length; i += columns) rows.push(cells.slice(i, i + columns));
        if (rows.length === 0) return '';
        const line = (row: string[]) => `| ${row.join(' | ')} |`;
        return [line(rows[0]!), line(rows[0]!.map(() => '---')), ...rows.slice(1).map(line)].join('\n');
      }
      default:
        return renderSiblings(childrenOf(block), depth).join('\n\n');
    }
  }

  return renderSiblings(childrenOf(root), 0).join('\n\n') + '\n';
}
