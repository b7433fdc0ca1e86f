/**
 * A SearchService over a fixed list of passages, ranked by BM25 over the keyword analyzer's terms.
 * For tests and measurements of the chat pipeline without a database; the real hybrid search
 * lives in ../search.
 */
import type { SearchHit, SearchRequest, SearchResponse } from '@shared/models';
import { throwIfAborted } from '../core/errors';
import { groupByDocument } from '../core/search/document-groups';
import type { SearchService } from '../core/search/search-service';
import { analyze } from '../core/text/analyzer';

export type Passage = Omit<SearchHit, 'score' | 'ranks' | 'key' | 'source'> & {
  key?: string;
  source?: SearchHit['source'];
};

/** BM25 constants from Robertson & Zaragoza, "The Probabilistic Relevance Framework" (2009). */
const K1 = 1.2;
const B = 0.75;

export class InMemorySearchService implements SearchService {
  private readonly docs: { passage: Passage; terms: Map<string, number>; length: number }[];
  private readonly documentFrequency = new Map<string, number>();
  private readonly averageLength: number;
  /** Every request received, for assertions on what retrieval was asked. */
  readonly requests: SearchRequest[] = [];

  constructor(passages: Passage[]) {
    this.docs = passages.map((passage) => {
      const tokens = analyze(`${passage.title} ${passage.headingPath} ${passage.text}`);
      const terms = new Map<string, number>();
      for (const token of tokens) terms.set(token, (terms.get(token) ?? 0) + 1);
      for (const term of terms.keys())
        this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
      return { passage, terms, length: tokens.length };
    });
    this.averageLength = this.docs.reduce((sum, d) => sum + d.length, 0) / Math.max(1, this.docs.length);
  }

  async search(request: SearchRequest, signal?: AbortSignal): Promise<SearchResponse> {
    const started = Date.now();
    this.requests.push(request);
    throwIfAborted(signal);
    const queryTerms = [...new Set(analyze(request.query))];
    const n = this.docs.length;
    const scored = this.docs
      .filter((d) => !request.connectionIds || request.connectionIds.includes(d.passage.connectionId))
      .map((d) => {
        let score = 0;
        for (const term of queryTerms) {
          const tf = d.terms.get(term) ?? 0;
          if (!tf) continue;
          const df = this.documentFrequency.get(term) ?? 0;
          const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
          score += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * d.length) / this.averageLength));
        }
        return { d, score };
      })
      .filter((s) => s.score > 0)
      .sort((a, b) => b.score - a.score);
    const ranked: SearchHit[] = scored.map(({ d, score }, index) => ({
      ...d.passage,
      key: d.passage.key ?? `chunk:${d.passage.externalId}:${d.passage.charStart ?? index}`,
      source: d.passage.source ?? 'index',
      score,
      ranks: { keyword: index + 1 },
    }));
    const k = request.k ?? 10;
    const documents = groupByDocument(ranked, (hit) => `${hit.connectionId}\u0000${hit.externalId}`).slice(
      0,
      k,
    );
    return { hits: ranked.slice(0, k), documents, warnings: [], tookMs: Date.now() - started };
  }
}
