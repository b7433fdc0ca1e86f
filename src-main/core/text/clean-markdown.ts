/**
 * What Cairn indexes and shows of a Markdown document: its text, without the markup of the site
 * generator it was written for. Runs once per document before chunking (sync-engine.ts), so the
 * chunks, the keyword text, the embedder's input, the search hits, `ask`'s passages, the CLI and
 * the UI all see the same cleaned text, and chunk offsets point into it (it is what
 * documents.content stores).
 *
 * - YAML front matter is parsed (the `yaml` package) and removed from the body: `title` names the
 *   document and, when the body has no H1, becomes its first heading (so chunks get a heading
 *   path); `aliases`, `tags`, `summary`/`description` become searchable metadata, not body text.
 * - Outside code (fenced blocks and inline code spans stay exactly as written):
 *   Hugo shortcodes (`{{< copyable "sql" >}}`, `{{% note %}}`, paired ones keep their inner
 *   text), Liquid tags (`{% include x %}`), template placeholders (`{{{ .starter }}}` → starter,
 *   `{{ site.name }}` → site.name), HTML comments, and HTML tags (`<span class="version-mark">从
 *   v5.0 版本开始引入</span>` keeps its text; block tags become line breaks; `<td>` a cell gap).
 * - Inline binary payloads (`data:` URIs, e.g. pasted base64 images) are removed before chunking:
 *   an image keeps its alt text, any other payload becomes "[data]".
 * - Lines left empty by the stripping (`</div></SimpleTab>`) go; runs of blank lines become one.
 */
import { parse as parseYaml } from 'yaml';

export interface DocumentMetadata {
  /** The front matter's title, when it has one. */
  title?: string;
  aliases?: string[];
  tags?: string[];
  /** `summary`, else `description`. */
  summary?: string;
}

export interface CleanedMarkdown {
  markdown: string;
  metadata: DocumentMetadata;
}

const FRONT_MATTER = /^---[ \t]*\n([\s\S]*?)\n(?:---|\.\.\.)[ \t]*(?:\n|$)/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** Longest metadata string kept (a summary is a sentence or two, not a second body). */
const MAX_META_CHARS = 1000;

export function cleanMarkdown(source: string): CleanedMarkdown {
  const { body, metadata } = splitFrontMatter(source);
  let markdown = stripMarkup(body);
  if (metadata.title && !hasH1OutsideCode(markdown)) markdown = `# ${metadata.title}\n\n${markdown}`;
  return { markdown, metadata };
}

function splitFrontMatter(source: string): { body: string; metadata: DocumentMetadata } {
  const match = FRONT_MATTER.exec(source);
  if (!match) return { body: source, metadata: {} };
  let data: unknown;
  try {
    data = parseYaml(match[1] ?? '', { maxAliasCount: 50 });
  } catch {
    // Not YAML after all (a "---" rule at the top of a note): keep the text as it is.
    return { body: source, metadata: {} };
  }
  const body = source.slice(match[0].length);
  if (!data || typeof data !== 'object' || Array.isArray(data)) return { body, metadata: {} };
  const record = data as Record<string, unknown>;
  const metadata: DocumentMetadata = {};
  const title = oneLine(record.title);
  if (title) metadata.title = title;
  const aliases = stringList(record.aliases);
  if (aliases.length > 0) metadata.aliases = aliases;
  const tags = stringList(record.tags ?? record.keywords);
  if (tags.length > 0) metadata.tags = tags;
  const summary = oneLine(record.summary) ?? oneLine(record.description);
  if (summary) metadata.summary = summary;
  return { body, metadata };
}

function oneLine(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const text = stripMarkup(String(value)).replace(/\s+/g, ' ').trim().slice(0, MAX_META_CHARS);
  return text || undefined;
}

/** A YAML list, or one comma-separated string ("tags: a, b"), as distinct non-empty strings. */
function stringList(value: unknown): string[] {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  const out = new Set<string>();
  for (const item of items) {
    const text = oneLine(item);
    if (text) out.add(text);
  }
  return [...out].slice(0, 100);
}

/** An ATX "# Title" or a setext "Title\n===" outside fenced code. */
function hasH1OutsideCode(markdown: string): boolean {
  let fence: string | null = null;
  let previous = '';
  for (const line of markdown.split('\n')) {
    const open = FENCE.exec(line);
    if (fence !== null) {
      if (open && open[1]![0] === fence) fence = null;
    } else if (open) {
      fence = open[1]![0]!;
    } else if (/^ {0,3}#[ \t]+\S/.test(line) || (/^ {0,3}=+[ \t]*$/.test(line) && previous.trim())) {
      return true;
    }
    previous = fence === null ? line : '';
  }
  return false;
}

const DATA_IMAGE = /!\[([^\]\n]*)\]\(\s*<?data:[^)\s]*>?\s*\)/g;
const DATA_URI = /data:[a-z]+\/[a-z0-9.+-]+(?:;[a-z0-9=.+-]+)*;base64,[a-z0-9+/=]{16,}/gi;
const HTML_COMMENT = /<!--[\s\S]*?-->/g;
const HUGO_SHORTCODE = /\{\{[<%][\s\S]*?[%>]\}\}/g;
const LIQUID_TAG = /\{%[\s\S]*?%\}/g;
const PLACEHOLDER = /\{\{\{?\s*\.?([\w.-]+)\s*\}?\}\}/g;
const BLOCK_TAG =
  /<\/?(?:address|article|aside|blockquote|br|dd|details|dialog|div|dl|dt|fieldset|figcaption|figure|footer|form|h[1-6]|header|hr|li|main|nav|ol|p|pre|section|summary|table|tbody|tfoot|thead|tr|ul)\b[^>]*>/gi;
const CELL_TAG = /<\/?t[dh]\b[^>]*>/gi;
/** Any other tag, including components (<SimpleTab>, <CustomContent platform="tidb">). */
const TAG = /<\/?[A-Za-z][\w:-]*(?:\s+[^<>]*)?\/?>/g;
const INLINE_CODE = /(`+)[^`\n]*?\1/g;

/** Strips markup outside code; fenced code blocks and inline code spans are kept verbatim. */
export function stripMarkup(text: string): string {
  // Payloads first: a base64 image can hold "<", "{{" or a fence-like run.
  const withoutPayloads = text
    .replace(DATA_IMAGE, (_m, alt: string) => alt.trim())
    .replace(DATA_URI, '[data]');
  const out: string[] = [];
  let prose: string[] = [];
  const flush = () => {
    if (prose.length > 0) out.push(cleanProse(prose.join('\n')));
    prose = [];
  };
  let fence: string | null = null;
  for (const line of withoutPayloads.split('\n')) {
    const open = FENCE.exec(line);
    if (fence !== null) {
      out.push(line);
      if (open && open[1]![0] === fence[0] && open[1]!.length >= fence.length && line.trim() === open[1])
        fence = null;
      continue;
    }
    if (open) {
      flush();
      fence = open[1]!;
      out.push(line);
      continue;
    }
    prose.push(line);
  }
  flush();
  return out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+/, '')
    .trimEnd();
}

/** Cleans prose: inline code spans are set aside first and put back unchanged. */
function cleanProse(prose: string): string {
  const spans: string[] = [];
  const masked = prose.replace(INLINE_CODE, (span) => `\u0000${spans.push(span) - 1}\u0000`);
  const cleaned = masked
    .replace(HTML_COMMENT, '')
    .replace(HUGO_SHORTCODE, '\u0001')
    .replace(LIQUID_TAG, '\u0001')
    .replace(PLACEHOLDER, (_m, name: string) => name)
    .replace(BLOCK_TAG, '\u0001\n')
    .replace(CELL_TAG, '\u0001 ')
    .replace(TAG, '\u0001')
    .split('\n')
    // Markup at the start of a line goes with the spaces after it; the line's own indentation
    // stays (lists, code in lists); a line that held only markup goes.
    .map((line) =>
      line
        .replace(/^([ \t]*)\u0001[\u0001 \t]*/, '$1')
        .replace(/\u0001/g, '')
        .replace(/[ \t]+$/, ''),
    )
    .filter((line, i, lines) => line.trim() !== '' || lines[i - 1]?.trim() !== '')
    .join('\n');
  return cleaned.replace(/\u0000(\d+)\u0000/g, (_m, i: string) => spans[Number(i)]!);
}
