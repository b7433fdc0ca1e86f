/**
 * The hits a search returns, built from fused keys: an indexed chunk's row (with its connection's
 * platform) or a live platform hit becomes the SearchHit that the app, the CLI, MCP and chat read.
 */
import type { Platform, SearchHit } from '@shared/models';
import { slug } from 'github-slugger';
import { headingPathAt } from '@shared/heading-at';
import type { DirectResult } from './direct-channel';
import type { IndexedChunkRow } from './index-retrieval';
import { chunkIdOf, directKey } from './result-keys';
import type { FusedItem } from './rrf';

/** An indexed chunk's row with its connection's platform (from the search catalog). */
export interface ChunkRow extends IndexedChunkRow {
  platform: Platform;
}

/** A live hit as fusion ranks it: its source's result and its place in that result's list. */
export interface LiveHitRef {
  result: DirectResult;
  index: number;
}

/** The rows with their connection's platform; a row whose connection the catalog does not list is left out (it is being removed). */
export function withPlatforms(
  rows: ReadonlyMap<number, IndexedChunkRow>,
  platforms: ReadonlyMap<string, Platform>,
): Map<number, ChunkRow> {
  const found = new Map<number, ChunkRow>();
  for (const [id, row] of rows) {
    const platform = platforms.get(row.connection_id);
    if (platform) found.set(id, { ...row, platform });
  }
  return found;
}

/** Each live source's hits as a ranked key list (a fusion channel), and the hit each key names. */
export function liveRankings(results: readonly DirectResult[]): {
  channels: Map<string, string[]>;
  byKey: Map<string, LiveHitRef>;
} {
  const channels = new Map<string, string[]>();
  const byKey = new Map<string, LiveHitRef>();
  for (const result of results) {
    const keys = result.hits.map((hit, index) => {
      const key = directKey(result.source.connectionId, hit.externalId);
      if (!byKey.has(key)) byKey.set(key, { result, index });
      return key;
    });
    channels.set(result.source.connectionId, keys);
  }
  return { channels, byKey };
}

/** What a cross-encoder reads of a candidate: title, section and text (null if it vanished). */
export function candidateText(
  key: string,
  chunks: ReadonlyMap<number, ChunkRow>,
  live: ReadonlyMap<string, LiveHitRef>,
): string | null {
  const chunkId = chunkIdOf(key);
  const row = chunkId === null ? undefined : chunks.get(chunkId);
  if (row) return [row.title, row.heading_path, row.content].filter(Boolean).join('\n');
  const entry = live.get(key);
  const hit = entry?.result.hits[entry.index];
  return hit ? [hit.title, hit.snippet ?? ''].join('\n') : null;
}

/** The hit a fused key stands for (null if its chunk vanished between ranking and loading). */
export function fusedHit<C extends string>(
  item: FusedItem<C>,
  chunks: ReadonlyMap<number, ChunkRow>,
  live: ReadonlyMap<string, LiveHitRef>,
): SearchHit | null {
  const ranks: SearchHit['ranks'] = {};
  for (const [channel, rank] of Object.entries(item.ranks) as [string, number][]) {
    if (channel === 'vector' || channel === 'keyword' || channel === 'rerank') ranks[channel] = rank;
    else ranks.direct = rank;
  }
  const chunkId = chunkIdOf(item.key);
  if (chunkId !== null) {
    const row = chunks.get(chunkId);
    return row ? indexHit(item.key, row, item.score, ranks) : null;
  }
  const entry = live.get(item.key);
  return entry ? directHit(item.key, entry.result, entry.index, item.score, ranks) : null;
}

function indexHit(key: string, row: ChunkRow, score: number, ranks: SearchHit['ranks']): SearchHit {
  return {
    key,
    source: 'index',
    connectionId: row.connection_id,
    platform: row.platform,
    documentId: Number(row.document_id),
    externalId: row.external_id,
    title: row.title,
    knowledgeBase: row.knowledge_base,
    url: sectionUrl(row),
    headingPath: row.heading_path,
    text: row.content,
    charStart: row.char_start,
    charEnd: row.char_end,
    ...(row.location ? { location: row.location } : {}),
    score,
    ranks,
  };
}

/**
 * The hit's link pointed at its section where the format allows: a local Markdown file gets the
 * GitHub-style anchor of the passage's own nearest heading (file.md#heading-anchor, what Markdown
 * viewers and editors resolve): the heading above the chunk's first text, not the path its
 * sections share. Platform links stay as they are: their block anchors are not stored. The link
 * opener strips the anchor to open the file (core/app/open-external.ts).
 */
export function sectionUrl(
  row: Pick<ChunkRow, 'url' | 'platform' | 'heading_path' | 'content'>,
  offset = firstTextOffset(row.content),
): string | null {
  if (!row.url || row.platform !== 'folder' || !/\.(?:md|markdown|mdx)(?:#|$)/i.test(row.url)) return row.url;
  const file = row.url.replace(/#.*$/, '');
  const heading = headingPathAt(row.content, offset, row.heading_path).split(' > ').at(-1)?.trim();
  const anchor = heading ? slug(heading) : '';
  return anchor ? `${file}#${anchor}` : file;
}

/** Where a chunk's text begins: its first line that is not blank or a heading (0 when none is). */
function firstTextOffset(markdown: string): number {
  let offset = 0;
  for (const line of markdown.split('\n')) {
    if (line.trim() !== '' && !/^ {0,3}#{1,6}(?:\s|$)/.test(line)) return offset;
    offset += line.length + 1;
  }
  return 0;
}

function directHit(
  key: string,
  result: DirectResult,
  index: number,
  score: number,
  ranks: SearchHit['ranks'],
): SearchHit {
  const hit = result.hits[index]!;
  return {
    key,
    source: 'direct',
    connectionId: result.source.connectionId,
    platform: result.source.platform,
    documentId: null,
    externalId: String(hit.externalId),
    title: hit.title || hit.externalId,
    knowledgeBase: hit.knowledgeBase || result.source.knowledgeBaseFallback,
    url: hit.url ?? null,
    headingPath: '',
    text: hit.snippet ?? '',
    charStart: null,
    charEnd: null,
    score,
    ranks,
  };
}
