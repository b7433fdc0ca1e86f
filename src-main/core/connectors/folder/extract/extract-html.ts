/**
 * Web pages (.html, .htm) through the shared turndown path: the page's main content (its <main>
 * or <article> when it has one, else the body) as Markdown; scripts, styles, navigation, footers
 * and other page furniture dropped. The title is <title>, else the first heading.
 */
import { decodeXmlEntities, type Extracted, type ExtractContext } from './extracted';
import { htmlToMarkdown } from '../../../text/html-markdown';

const FURNITURE = /<(nav|footer|aside|form|button|noscript|script|style|template)\b/gi;

export async function extractHtml(bytes: Buffer, _context: ExtractContext): Promise<Extracted> {
  const html = decodeHtml(bytes);
  return htmlDocument(html);
}

/** Markdown and title of one HTML document (also used for EPUB chapters). */
export function htmlDocument(html: string): Extracted {
  const titleText = elementText(html, 'title');
  const title = titleText ? decodeXmlEntities(titleText).replace(/\s+/g, ' ').trim() : '';
  const main = outermost(html, 'main') ?? outermost(html, 'article') ?? outermost(html, 'body') ?? html;
  return { markdown: htmlToMarkdown(withoutFurniture(main)), title: title || null };
}

/**
 * Each furniture element from its start tag to its first end tag, removed in one pass. (A lazy
 * regex with a back-reference did the same but, for start tags that are never closed, searched to
 * the end once per tag: 33 s for a page of 50,000 unclosed <nav>s.) A kind whose end tag does not
 * follow is not searched for again.
 */
function withoutFurniture(html: string): string {
  const unclosed = new Set<string>();
  const kept: string[] = [];
  let from = 0;
  FURNITURE.lastIndex = 0;
  for (let open = FURNITURE.exec(html); open; open = FURNITURE.exec(html)) {
    const name = (open[1] ?? '').toLowerCase();
    if (unclosed.has(name)) continue;
    const close = new RegExp(`</${name}\\s*>`, 'gi');
    close.lastIndex = FURNITURE.lastIndex;
    const end = close.exec(html);
    if (!end) {
      unclosed.add(name);
      continue;
    }
    kept.push(html.slice(from, open.index));
    from = end.index + end[0].length;
    FURNITURE.lastIndex = from;
  }
  kept.push(html.slice(from));
  return kept.join('');
}

/** The text of the first <tag>…</tag>, found in linear time (a lazy regex rescans for each unclosed start tag). */
function elementText(html: string, tag: string): string | null {
  const open = new RegExp(`<${tag}\\b[^>]*>`, 'i').exec(html);
  if (!open) return null;
  const start = open.index + open[0].length;
  const close = new RegExp(`</${tag}\\s*>`, 'gi');
  close.lastIndex = start;
  const end = close.exec(html);
  return end ? html.slice(start, end.index) : null;
}

/** The first <tag>…</tag> element's inner HTML, up to its last closing tag (nested ones kept inside). */
function outermost(html: string, tag: string): string | null {
  const open = new RegExp(`<${tag}\\b[^>]*>`, 'i').exec(html);
  if (!open) return null;
  const close = html.toLowerCase().lastIndexOf(`</${tag}`);
  if (close <= open.index) return null;
  return html.slice(open.index + open[0].length, close);
}

/** UTF-8 unless the page declares another charset that the platform's TextDecoder knows. */
function decodeHtml(bytes: Buffer): string {
  const head = bytes.subarray(0, 2048).toString('latin1');
  const declared = /<meta[^>]+charset=["']?([\w-]+)/i.exec(head)?.[1];
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}
