/**
 * Markdown and plain text. A NUL byte anywhere, or a stretch of control bytes, is a binary file
 * even when it starts after the first 8 KB (a text header on a binary body); the bytes are read
 * as UTF-8 (invalid bytes become U+FFFD). In Markdown, Obsidian wikilinks and embeds become
 * their text; the front matter is left for the sync engine.
 */
import { BINARY_SNIFF_BYTES, decodeUtf8, looksBinary } from '../../../text/normalize';
import { renderWikilinks } from '../obsidian';
import { firstHeading, splitFrontMatter } from '../folder-text';
import { fileFailure, type Extracted, type ExtractContext } from './extracted';

/** True when some 8 KB window of the file looks binary (or any NUL byte exists). */
export function containsBinary(bytes: Uint8Array): boolean {
  if (bytes.indexOf(0) !== -1) return true;
  for (let start = 0; start < bytes.length; start += BINARY_SNIFF_BYTES)
    if (looksBinary(bytes.subarray(start, start + BINARY_SNIFF_BYTES))) return true;
  return false;
}

export async function extractText(bytes: Buffer, context: ExtractContext): Promise<Extracted> {
  if (containsBinary(bytes))
    throw fileFailure(
      'folder.binary',
      `Skipped binary content in ${context.externalId} (NUL or control bytes).`,
      {
        skipped: true,
      },
    );
  const text = decodeUtf8(bytes).text;
  const split = splitFrontMatter(text);
  const body = /\.txt$/i.test(context.externalId)
    ? split.body
    : renderWikilinks(split.body, context.linkTitle);
  // The front matter stays in: the sync engine parses it (title, tags, aliases, summary) for every
  // source alike (core/text/clean-markdown.ts); its title wins over this one.
  const frontMatter = text.slice(0, text.length - split.body.length);
  return { markdown: frontMatter + body, title: split.frontMatterTitle ?? firstHeading(body) };
}
