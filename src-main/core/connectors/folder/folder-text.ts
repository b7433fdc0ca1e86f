/**
 * Text helpers for local Markdown files: front matter, titles and search snippets.
 * (Binary sniffing and UTF-8 decoding are shared: ../text/normalize.ts.)
 */

// YAML front matter as Obsidian, Jekyll and Hugo write it: a first line of `---`, closed by `---` or `...`.
const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

export interface SplitMarkdown {
  /** The front matter's `title:` value, when it has one. */
  frontMatterTitle: string | null;
  /** The document without its front matter. */
  body: string;
}

export function splitFrontMatter(text: string): SplitMarkdown {
  const match = FRONT_MATTER.exec(text);
  if (!match) return { frontMatterTitle: null, body: text };
  const titleLine = /^title:[ \t]*(.+?)[ \t]*$/m.exec(match[1] ?? '');
  const raw = titleLine?.[1] ?? '';
  const unquoted = raw.replace(/^(["'])(.*)\1$/, '$2').trim();
  return { frontMatterTitle: unquoted || null, body: text.slice(match[0].length) };
}

/** The first ATX (`# Title`) or setext (`Title\n===`) heading outside fenced code, or null. */
export function firstHeading(markdown: string): string | null {
  const lines = markdown.split(/\r?\n/, 2000);
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const fenceMatch = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fenceMatch) {
      const marker = fenceMatch[1] ?? '';
      if (fence === null) fence = marker[0] ?? null;
      else if (marker[0] === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const atx = /^\s{0,3}#{1,6}[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (atx?.[1]) return cleanTitle(atx[1]);
    const next = lines[i + 1] ?? '';
    if (line.trim() && /^\s{0,3}(=+|-+)\s*$/.test(next) && !/^\s{0,3}[-*+>|]/.test(line))
      return cleanTitle(line);
  }
  return null;
}

function cleanTitle(title: string): string {
  return title.replace(/\s+/g, ' ').trim().slice(0, 300);
}

/** Title rule for local files: front matter title, else first heading, else the file name without extension. */
export function titleFor(fileName: string, split: SplitMarkdown): string {
  return split.frontMatterTitle ?? firstHeading(split.body) ?? stripExtension(fileName);
}

export function stripExtension(fileName: string): string {
  return fileName.replace(/\.(md|markdown|mdx|txt)$/i, '');
}

/** ~`width` characters of `text` around `index`, whitespace collapsed, with ellipses where cut. */
export function snippetAround(text: string, index: number, width = 160): string {
  const start = Math.max(0, index - Math.floor(width / 3));
  const end = Math.min(text.length, start + width);
  const body = text.slice(start, end).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}
