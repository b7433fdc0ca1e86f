/** In-memory BM25 with Lucene's idf, the reference the keyword channel is measured against. */

export interface Bm25Options {
  /** @default 0.9 (Anserini's BEIR setting) */
  k1?: number;
  /** @default 0.4 */
  b?: number;
}

export class Bm25Index {
  private readonly postings = new Map<string, { doc: number; tf: number }[]>();
  private readonly lengths: number[] = [];
  private readonly k1: number;
  private readonly b: number;

  constructor(documents: string[][], options: Bm25Options = {}) {
    this.k1 = options.k1 ?? 0.9;
    this.b = options.b ?? 0.4;
    documents.forEach((tokens, doc) => {
      this.lengths.push(tokens.length);
      const tf = new Map<string, number>();
      for (const token of tokens) tf.set(token, (tf.get(token) ?? 0) + 1);
      for (const [term, count] of tf) {
        const list = this.postings.get(term) ?? [];
        list.push({ doc, tf: count });
        this.postings.set(term, list);
      }
    });
  }

  /** Document indexes of the top `k`, best first. Repeated query terms count once per occurrence, as in a Lucene bag of SHOULD clauses. */
  search(queryTokens: string[], k: number): number[] {
    const n = this.lengths.length;
    const avgLength = this.lengths.reduce((a, b) => a + b, 0) / (n || 1);
    const scores = new Map<number, number>();
    for (const term of queryTokens) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const { doc, tf } of list) {
        const norm = this.k1 * (1 - this.b + (this.b * this.lengths[doc]!) / avgLength);
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf) / (tf + norm));
      }
    }
    return [...scores.entries()]
      .sort((x, y) => y[1] - x[1] || x[0] - y[0])
      .slice(0, k)
      .map(([doc]) => doc);
  }
}
