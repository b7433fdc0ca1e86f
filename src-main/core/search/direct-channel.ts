/**
 * Live search of direct-mode connections: each source is asked in parallel with its own timeout;
 * a failure or timeout becomes a warning, never an error, so local results always stand.
 */
import type { AppErrorData } from '@shared/errors';
import type { Platform } from '@shared/models';
import type { DirectHit } from '../connectors/connector';
import { CairnError, toErrorData } from '../errors';
import { normalizeText } from '../text/normalize';

/** One direct-mode connection as the search sees it (built by the composition root from a Connector). */
export interface DirectSearchSource {
  connectionId: string;
  platform: Platform;
  /** Shown when a platform hit names no knowledge base (e.g. the connection's name). */
  knowledgeBaseFallback: string;
  search(query: string, options: { limit: number; signal?: AbortSignal }): Promise<DirectHit[]>;
}

/** @default 3000 ms per platform call. */
export const DEFAULT_DIRECT_TIMEOUT_MS = 3000;

export interface DirectResult {
  source: DirectSearchSource;
  hits: DirectHit[];
}

export interface DirectWarning {
  connectionId: string;
  error: AppErrorData;
}

/** Plain text from a platform field: NUL and lone surrogates cannot be stored or shown. */
function cleanText(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? normalizeText(String(value)) : '';
}

/**
 * A platform's hits as the rest of Cairn expects them (strings, an id), whatever its API
 * returned: direct hits travel into the UI and into stored chat sources (jsonb).
 */
function cleanHits(hits: unknown[]): DirectHit[] {
  const clean: DirectHit[] = [];
  for (const hit of hits) {
    if (!hit || typeof hit !== 'object') continue;
    const raw = hit as Record<string, unknown>;
    const externalId = cleanText(raw.externalId);
    if (!externalId) continue;
    const url = cleanText(raw.url);
    clean.push({
      externalId,
      title: cleanText(raw.title),
      snippet: cleanText(raw.snippet),
      url: url || null,
      knowledgeBase: cleanText(raw.knowledgeBase),
    });
  }
  return clean;
}

function withTimeout<T>(
  work: (signal: AbortSignal) => Promise<T>,
  timeoutMs: number,
  outer?: AbortSignal,
): Promise<T> {
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(outer?.reason);
  outer?.addEventListener('abort', onOuterAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Racing as well as aborting: a source that ignores its signal still cannot hold the search.
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new CairnError('TIMEOUT', `No answer within ${timeoutMs} ms.`));
      controller.abort();
    }, timeoutMs);
  });
  const cancelled = new Promise<never>((_resolve, reject) => {
    if (outer?.aborted) reject(new CairnError('CANCELLED', 'Cancelled.'));
    controller.signal.addEventListener('abort', () => reject(new CairnError('CANCELLED', 'Cancelled.')), {
      once: true,
    });
  });
  // A source that throws before returning a promise fails like one that rejects.
  let working: Promise<T>;
  try {
    working = work(controller.signal);
  } catch (error) {
    working = Promise.reject(error);
  }
  return Promise.race([working, timeout, cancelled]).finally(() => {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  });
}

export async function searchDirectSources(
  sources: DirectSearchSource[],
  query: string,
  options: { limit: number; timeoutMs: (platform: Platform) => number; signal?: AbortSignal },
): Promise<{ results: DirectResult[]; warnings: DirectWarning[] }> {
  const settled = await Promise.allSettled(
    sources.map((source) =>
      withTimeout(
        (signal) => source.search(query, { limit: options.limit, signal }),
        options.timeoutMs(source.platform),
        options.signal,
      ),
    ),
  );
  const results: DirectResult[] = [];
  const warnings: DirectWarning[] = [];
  settled.forEach((outcome, i) => {
    const source = sources[i]!;
    if (outcome.status === 'fulfilled') {
      results.push({
        source,
        hits: Array.isArray(outcome.value) ? cleanHits(outcome.value).slice(0, options.limit) : [],
      });
    } else {
      warnings.push({ connectionId: source.connectionId, error: toErrorData(outcome.reason) });
    }
  });
  return { results, warnings };
}
