/**
 * Web pages (.html, .htm) through the shared turndown path: the page's main content (its <main>
 * or <article> when it has one, else the body) as Markdown; scripts, styles, navigation, footers
 * and other page furniture dropped. The title is <title>, else the first heading.
 */
import { decodeXmlEntities, type Extracted, type ExtractContext } from './extracted';
import { htmlToMarkdown } from '../../../text/html-markdown';

const FURNITURE = /<(nav|footer|aside|form|button|noscript|script|style|template)\b[\s\S]*?<\/\1\s*>/gi;

export async function extractHtml(bytes: Buffer, _context: ExtractContext): Promise<Extracted> {
  const html = decodeHtml(bytes);
  return htmlDocument(html);
}

/** Markdown and title of one HTML document (also used for EPUB chapters). */
export function htmlDocument(html: string): Extracted {
  const titleMatch = /<title\b[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  const title = titleMatch
    ? decodeXmlEntities(titleMatch[1] ?? '')
        .replace(/\s+/g, ' ')
        .trim()
    : '';
  const main = outermost(html, 'main') ?? outermost(html, 'article') ?? outermost(html, 'body') ?? html;
  return { markdown: htmlToMarkdown(main.replace(FURNITURE, '')), title: title || null };
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
