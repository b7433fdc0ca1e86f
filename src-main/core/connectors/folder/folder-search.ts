/**
 * Direct mode for a local folder: a bounded streaming scan of the text-like files (Markdown,
 * text, HTML, CSV) for the query terms: case-insensitive substrings, so CJK works without
 * segmentation. PDFs and Office files are searched only once indexed (RAG mode): parsing them
 * per query would be far too slow.
 */
import { basename } from 'node:path';
import { throwIfAborted } from '../../errors';
import { openInside } from './read-inside';
import type { Logger } from '../../logging/logger';
import type { DirectHit } from '../connector';
import { extractorFor } from './extract/extractors';
import { containsBinary } from './extract/extract-text';
import type { FolderConnector } from './folder-connector';
import { snippetAround, splitFrontMatter, titleFor } from './folder-text';
import { decodeUtf8 } from '../../text/normalize';

const SCANNED_KINDS = new Set(['markdown', 'text']);

export async function searchFolder(
  folder: FolderConnector,
  query: string,
  options: { limit: number; signal?: AbortSignal; maxFiles: number; maxFileBytes: number; logger: Logger },
): Promise<DirectHit[]> {
  const terms = queryTerms(query);
  if (terms.length === 0 || options.limit <= 0) return [];
  const scored: { hit: DirectHit; score: number }[] = [];
  let filesRead = 0;
  for await (const ref of folder.list(options.signal)) {
    throwIfAborted(options.signal);
    if (filesRead >= options.maxFiles) break;
    if (!SCANNED_KINDS.has(extractorFor(ref.externalId)?.kind ?? '')) continue;
    const path = folder.pathOf(ref.externalId);
    let bytes: Buffer | null;
    try {
      const { handle, stats } = await openInside(path, await folder.realRoot(), ref.externalId);
      try {
        bytes = stats.size > options.maxFileBytes ? null : await handle.readFile({ signal: options.signal });
      } finally {
        await handle.close();
      }
      if (!bytes) continue;
    } catch (error) {
      throwIfAborted(options.signal);
      options.logger.debug('folder search skipped an unreadable file', {
        file: ref.externalId,
        reason: (error as Error).message,
      });
      continue;
    }
    filesRead++;
    if (containsBinary(bytes)) continue;
    const split = splitFrontMatter(decodeUtf8(bytes).text);
    const title = titleFor(basename(path), split);
    const match = scoreText(terms, title, split.body);
    if (!match) continue;
    scored.push({
      score: match.score,
      hit: {
        externalId: ref.externalId,
        title,
        snippet: snippetAround(split.body, match.firstIndex),
        url: path,
        knowledgeBase: folder.knowledgeBase,
      },
    });
  }
  scored.sort((a, b) => b.score - a.score || a.hit.externalId.localeCompare(b.hit.externalId));
  return scored.slice(0, options.limit).map((entry) => entry.hit);
}

/** Whitespace-separated, lower-cased terms that contain at least one letter or digit. */
export function queryTerms(query: string): string[] {
  const terms = query
    .toLowerCase()
    .split(/\s+/)
    .filter((term) => /[\p{L}\p{N}]/u.test(term));
  return [...new Set(terms)].slice(0, 32);
}

/** Files matching more distinct terms rank first, then by occurrences, with a bonus for title matches. */
function scoreText(
  terms: string[],
  title: string,
  body: string,
): { score: number; firstIndex: number } | null {
  const lowerBody = body.toLowerCase();
  const lowerTitle = title.toLowerCase();
  let distinct = 0;
  let occurrences = 0;
  let firstIndex = -1;
  for (const term of terms) {
    let count = 0;
    for (
      let at = lowerBody.indexOf(term);
      at !== -1 && count < 100;
      at = lowerBody.indexOf(term, at + term.length)
    ) {
      if (count === 0 && (firstIndex === -1 || at < firstIndex)) firstIndex = at;
      count++;
    }
    const inTitle = lowerTitle.includes(term);
    if (count > 0 || inTitle) distinct++;
    occurrences += count + (inTitle ? 5 : 0);
  }
  if (distinct === 0) return null;
  return {
    score: distinct * 10_000 + occurrences,
    firstIndex: Math.max(0, Math.min(firstIndex, body.length)),
  };
}
