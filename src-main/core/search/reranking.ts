/**
 * Reranking the fused candidates with a cross-encoder, within a time budget per query.
 *
 * The fused top-30 are scored before the top-k is cut. Before running, the cost is estimated
 * (pairs × milliseconds per pair, from the model's last measured runs, else the catalogue's
 * figure): if 30 pairs do not fit the budget, the largest depth that does (at least 10, the page
 * a user sees) is reranked; if not even that fits, reranking is skipped and the response says so.
 * A run that still overshoots (the machine got busy) is abandoned at twice the budget and reported
 * as skipped for time; the fused order stands. Nothing here ever fails a search.
 */
import type { RerankInfo } from '@shared/models';
import { isAbortError } from '../errors';

export interface Reranker {
  /** Catalogue id, reported in the response. */
  readonly model: string;
  /** False while the model is still loading: the query is not made to wait for it. */
  ready(): boolean;
  /** Estimated wall milliseconds to score `pairs` pairs now. */
  estimateMs(pairs: number): number;
  /** Relevance of each passage to the query, higher is better. */
  score(query: string, passages: string[], signal: AbortSignal): Promise<number[]>;
}

export interface RerankOptions {
  budgetMs: number;
  /** @default 30 */
  depth?: number;
  /** @default 10 */
  minDepth?: number;
  signal?: AbortSignal;
}

export const RERANK_DEPTH = 30;
const MIN_DEPTH = 10;

/** The reorder of `items` (best first) and what happened; `items` is returned as it was when skipped. */
export async function rerankCandidates<T>(
  reranker: Reranker,
  query: string,
  items: T[],
  textOf: (item: T) => string | null,
  options: RerankOptions,
): Promise<{ items: T[]; info: RerankInfo }> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  const wanted = Math.min(items.length, options.depth ?? RERANK_DEPTH);
  const skipped = (reason: RerankInfo['reason'], estimatedMs: number | null = null) => ({
    items,
    info: {
      status: 'skipped' as const,
      model: reranker.model,
      reason,
      depth: 0,
      tookMs: took(),
      estimatedMs,
    },
  });
  if (wanted < 2) return skipped('too-few');
  if (!reranker.ready()) return skipped('loading');
  let depth = wanted;
  const minDepth = Math.min(wanted, options.minDepth ?? MIN_DEPTH);
  while (depth > minDepth && reranker.estimateMs(depth) > options.budgetMs) depth--;
  const estimatedMs = Math.round(reranker.estimateMs(depth));
  if (estimatedMs > options.budgetMs) return skipped('budget', Math.round(reranker.estimateMs(wanted)));

  const head = items.slice(0, depth);
  const texts = head.map((item) => textOf(item) ?? '');
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), Math.max(50, options.budgetMs * 2));
  });
  try {
    const scores = await Promise.race([reranker.score(query, texts, controller.signal), timeout]);
    if (scores === 'timeout') {
      controller.abort();
      return skipped('timeout', estimatedMs);
    }
    const order = head.map((item, index) => ({ item, index, score: scores[index] ?? -Infinity }));
    order.sort((a, b) => b.score - a.score || a.index - b.index);
    return {
      items: [...order.map((o) => o.item), ...items.slice(depth)],
      info: { status: 'applied', model: reranker.model, reason: null, depth, tookMs: took(), estimatedMs },
    };
  } catch (error) {
    if (options.signal?.aborted && isAbortError(error)) throw error;
    return skipped('error', estimatedMs);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
