/**
 * One result per document: a ranked passage list grouped by the document each passage belongs
 * to. A document ranks where its best passage ranked, and its other passages follow that one,
 * best first. People are shown documents (the app, `cairn search`); chat retrieval keeps the
 * passage list, where two good chunks of one document are two useful sources. Before either, no
 * one document fills the page: its best few chunks stand for it (capPerDocument).
 */
import type { SearchDocument, SearchHit } from '@shared/models';
import { chunkIdOf } from './result-keys';
import { topKKeepingChannels, type FusedItem } from './rrf';

export interface PassageGroup<T> {
  best: T;
  more: T[];
}

export function groupByDocument<T>(ranked: readonly T[], documentOf: (item: T) => string): PassageGroup<T>[] {
  // A Map iterates in insertion order, which is the order of each document's best passage.
  const groups = new Map<string, PassageGroup<T>>();
  for (const item of ranked) {
    const document = documentOf(item);
    const group = groups.get(document);
    if (group) group.more.push(item);
    else groups.set(document, { best: item, more: [] });
  }
  return [...groups.values()];
}

/** The rows a fused key may name: an indexed chunk's document. */
type DocumentRows = ReadonlyMap<number, { document_id: string | number }>;

/** The document a fused key belongs to: an indexed chunk's document, or the live hit itself. */
export function documentKeyOf(key: string, chunks: DocumentRows): string {
  const id = chunkIdOf(key);
  const row = id === null ? undefined : chunks.get(id);
  return row ? `document:${row.document_id}` : key;
}

/** Drops a document's chunks beyond its best `max` (at least 1), keeping the order. */
export function capPerDocument<T extends { key: string }>(
  ranked: T[],
  chunks: DocumentRows,
  max: number,
): T[] {
  const seen = new Map<string, number>();
  return ranked.filter((item) => {
    const id = chunkIdOf(item.key);
    const row = id === null ? undefined : chunks.get(id);
    if (!row) return true;
    const documentKey = String(row.document_id);
    const count = (seen.get(documentKey) ?? 0) + 1;
    seen.set(documentKey, count);
    return count <= Math.max(1, max);
  });
}

/**
 * The top k documents of the ranked candidates, each with its best chunk and its other chunks
 * among them; every channel of `guaranteed` that found anything keeps its best document
 * (topKKeepingChannels). A candidate `toHit` cannot build (its chunk vanished) is left out.
 */
export function topDocuments<C extends string>(
  ranked: FusedItem<C>[],
  k: number,
  guaranteed: readonly C[],
  chunks: DocumentRows,
  toHit: (item: FusedItem<C>) => SearchHit | null,
): SearchDocument[] {
  const groups = new Map(
    groupByDocument(ranked, (item) => documentKeyOf(item.key, chunks)).map((group) => [
      group.best.key,
      group,
    ]),
  );
  const documents: SearchDocument[] = [];
  const bests = [...groups.values()].map((group) => group.best);
  for (const best of topKKeepingChannels(bests, k, guaranteed)) {
    const bestHit = toHit(best);
    if (bestHit)
      documents.push({
        best: bestHit,
        more: groups
          .get(best.key)!
          .more.map(toHit)
          .filter((hit) => hit !== null),
      });
  }
  return documents;
}
