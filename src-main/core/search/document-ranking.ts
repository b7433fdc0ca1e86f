/**
 * The keyword channel ranks documents, then the passages inside them (issue #24 items 2-3): BM25
 * over chunks finds the passages, and a document is scored from its best passage, a share of its
 * next best, and its title and the passage's headings as fields of their own:
 *
 *   chunk    = BM25(chunk) + headings × Σ weight(term) over the query terms in its heading path and own headings
 *   document = best chunk + more × second-best chunk + title × Σ weight(term) over the query terms in its title
 *
 * where weight(term) is the term's BM25 score as a one-word text against the index's statistics
 * (its IDF on the scale of a chunk's BM25 score). Only the best chunk and a share of the next one
 * count, not their sum: a page that many chunks mention in passing must not beat the one that is
 * about the query. The ranking lists documents best first, each with its best few chunks.
 *
 * Every chunk's keyword text holds its title and heading path already (embedding-input.ts), so
 * BM25 sees them as words of a long passage; the fields weigh a match there apart from the text.
 * Weights chosen on train splits (bench/ranking-study.ts; docs/decisions/retrieval-on-real-documents.md).
 */
import { toSearchText } from '../text/analyzer';

export interface DocumentRankingWeights {
  /** Weight of the query terms found in the document's title. */
  title: number;
  /** Weight of the query terms found in the chunk's heading path and own headings (not the title's). */
  headings: number;
  /** Weight of the document's second-best chunk. */
  more: number;
}

/** A scored chunk of the BM25 scan. */
export interface ScoredChunk {
  id: number;
  /** BM25, > 0. */
  score: number;
}

/** What document ranking reads of a chunk's row. */
export interface RankableChunk {
  document_id: string | number;
  title: string;
  heading_path: string;
  content: string;
}

const HEADING_LINES = /^ {0,3}#{1,6}[ \t]+.+$/gm;

function tokenSet(text: string): Set<string> {
  return new Set(toSearchText(text).split(' ').filter(Boolean));
}

/** Σ weight over the query terms in `tokens`. */
function fieldScore(tokens: ReadonlySet<string>, termWeights: ReadonlyMap<string, number>): number {
  let sum = 0;
  for (const [term, weight] of termWeights) if (tokens.has(term)) sum += weight;
  return sum;
}

/**
 * The chunk ids of `scan` reordered by document (see the file comment): documents best first,
 * each with at most `perDocument` of its chunks, best first. A chunk without a row is left out.
 */
export function rankByDocument(
  scan: readonly ScoredChunk[],
  rowOf: (id: number) => RankableChunk | undefined,
  termWeights: ReadonlyMap<string, number>,
  weights: Readonly<DocumentRankingWeights>,
  perDocument: number,
): number[] {
  const titleScores = new Map<string, number>();
  const documents = new Map<string, { chunks: { id: number; score: number }[]; title: number }>();
  for (const hit of scan) {
    const row = rowOf(hit.id);
    if (!row) continue;
    const key = String(row.document_id);
    let document = documents.get(key);
    if (!document) {
      let title = titleScores.get(key);
      if (title === undefined) {
        title = weights.title > 0 ? fieldScore(tokenSet(row.title), termWeights) : 0;
        titleScores.set(key, title);
      }
      document = { chunks: [], title };
      documents.set(key, document);
    }
    let score = hit.score;
    if (weights.headings > 0) {
      const titleTokens = tokenSet(row.title);
      const headings = [
        ...tokenSet([row.heading_path, ...(row.content.match(HEADING_LINES) ?? [])].join('\n')),
      ];
      score +=
        weights.headings * fieldScore(new Set(headings.filter((t) => !titleTokens.has(t))), termWeights);
    }
    document.chunks.push({ id: hit.id, score });
  }
  const ranked = [...documents.values()].map((document, order) => {
    document.chunks.sort((a, b) => b.score - a.score);
    const [best, second] = document.chunks;
    return {
      document,
      order,
      score: best!.score + weights.more * (second?.score ?? 0) + weights.title * document.title,
    };
  });
  ranked.sort((a, b) => b.score - a.score || a.order - b.order);
  return ranked.flatMap((entry) => entry.document.chunks.slice(0, Math.max(1, perDocument)).map((c) => c.id));
}
