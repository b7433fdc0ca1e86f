/**
 * A DingTalk document's first-level blocks as Markdown. The blocks API is documented ("Query block
 * elements", help.dingtalk.io/open/development/api-docblocksquery) and its SDK types every block
 * `any`; the shapes read here are the documented envelope `{blockType, [blockType]: {...}}` with
 * the properties third parties observed on live tenants (Tencent/WeKnora PR #1891:
 * `paragraph: {text}`, `heading: {level: "heading-2", text}`, `unorderedList`/`orderedList: {text}`,
 * `table: {cells: [[…]]}`, and `elements: [{text: {content}}, {link: {text, href}}]`). A block type
 * not known here gives whatever text fields it holds, so unknown content is kept rather than lost.
 */

type Json = Record<string, unknown>;

function asObject(value: unknown): Json | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
}

/** The text of an inline element list: `[{text: {content}}, {link: {text, href}}, …]`. */
function elementsText(elements: unknown): string {
  if (!Array.isArray(elements)) return '';
  return elements
    .map((element) => {
      const e = asObject(element);
      if (!e) return typeof element === 'string' ? element : '';
      const text = asObject(e.text);
      if (text && typeof text.content === 'string') return text.content;
      if (typeof e.text === 'string') return e.text;
      const link = asObject(e.link);
      if (link) {
        const label = typeof link.text === 'string' ? link.text : '';
        return typeof link.href === 'string' && label ? `[${label}](${link.href})` : label;
      }
      return typeof e.content === 'string' ? e.content : '';
    })
    .join('');
}

/** Any text a value holds: `text`/`content` strings and element lists, depth-limited. */
function anyText(value: unknown, depth = 0): string {
  if (depth > 4) return '';
  if (typeof value === 'string') return '';
  if (Array.isArray(value))
    return value
      .map((v) => anyText(v, depth + 1))
      .filter(Boolean)
      .join(' ');
  const object = asObject(value);
  if (!object) return '';
  if (typeof object.text === 'string') return object.text;
  if (Array.isArray(object.elements)) return elementsText(object.elements);
  if (typeof object.content === 'string') return object.content;
  return Object.values(object)
    .map((v) => anyText(v, depth + 1))
    .filter(Boolean)
    .join(' ');
}

function propsText(props: Json | null): string {
  if (!props) return '';
  if (typeof props.text === 'string') return props.text;
  if (Array.isArray(props.elements)) return elementsText(props.elements);
  return anyText(props);
}

function headingLevel(level: unknown): number {
  const n = typeof level === 'number' ? level : Number(String(level ?? '').replace(/\D/g, ''));
  return Number.isInteger(n) && n >= 1 && n <= 6 ? n : 2;
}

function cellText(cell: unknown): string {
  const text = typeof cell === 'string' ? cell : anyText(cell);
  return text.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');
}

function tableMarkdown(props: Json | null): string {
  const rows = Array.isArray(props?.cells) ? (props!.cells as unknown[]) : [];
  const cells = rows.filter(Array.isArray).map((row) => (row as unknown[]).map(cellText));
  if (cells.length === 0) return '';
  const width = Math.max(...cells.map((row) => row.length));
  const line = (row: string[]) => `| ${Array.from({ length: width }, (_, i) => row[i] ?? '').join(' | ')} |`;
  return [
    line(cells[0]!),
    line(Array.from({ length: width }, () => '---')),
    ...cells.slice(1).map(line),
  ].join('\n');
}

function blockMarkdown(block: Json): string {
  const type = String(block.blockType ?? block.type ?? '');
  const props = asObject(block[type]);
  switch (type) {
    case 'heading': {
      const text = propsText(props).trim();
      return text ? `${'#'.repeat(headingLevel(props?.level))} ${text}` : '';
    }
    case 'paragraph':
      return propsText(props).trim();
    case 'unorderedList':
      return `- ${propsText(props).trim()}`;
    case 'orderedList':
      return `1. ${propsText(props).trim()}`;
    case 'table':
      return tableMarkdown(props);
    case 'code': {
      const text = propsText(props);
      return text.trim() ? `\`\`\`\n${text}\n\`\`\`` : '';
    }
    default:
      return anyText(props ?? block).trim();
  }
}

/** Markdown of the blocks, in order; '' when they hold no text. */
export function blocksToMarkdown(blocks: Json[]): string {
  const parts = blocks.map(blockMarkdown).filter((part) => part && part !== '-' && part !== '1.');
  return parts.length === 0 ? '' : `${parts.join('\n\n')}\n`;
}
