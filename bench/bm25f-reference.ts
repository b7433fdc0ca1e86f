/**
 * The plain BM25F reference every collection is scored against (issue #24): the floor a ranking
 * change must stay above. Untuned on purpose; change nothing here to make a number move.
 *
 * - Documents: one per collection record (no chunks), with two fields: the title (the record's
 *   title, else its front matter `title:`, else its first Markdown heading) and the whole text.
 * - Words: Chinese by jieba's search mode (@node-rs/jieba `cutForSearch`, HMM on: 分区表 gives
 *   分区 and 分区表); Latin and digit runs lowercased and Porter-stemmed (the `stemmer` package);
 *   identifiers (`a_b_c`, `a.b-c`, `v7.4.0`, `camelCase`) kept whole and also split into parts.
 * - Stop words: the 61 words of STOP_WORDS, removed only as whole words, never inside one.
 * - Score: simple BM25F (Robertson & Zaragoza 2009, "The Probabilistic Relevance Framework",
 *   §3.3): tf~ = Σ_f w_f·tf_f / (1 − b + b·len_f/avglen_f); score = Σ_t idf(t)·tf~ / (k1 + tf~)
 *   over the query's distinct words, idf = ln(1 + (N − df + 0.5)/(df + 0.5)); title weight 3,
 *   text weight 1, k1 1.2, b 0.75. Ties keep corpus order.
 */
import { Jieba } from '@node-rs/jieba';
import { dict } from '@node-rs/jieba/dict';
import { stemmer } from 'stemmer';

export const BM25F = { k1: 1.2, b: 0.75, titleWeight: 3, textWeight: 1 } as const;

// prettier-ignore
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'can', 'do', 'does', 'for', 'from', 'how', 'i',
  'if', 'in', 'is', 'it', 'of', 'on', 'or', 'that', 'the', 'this', 'to', 'was', 'what', 'when',
  'where', 'which', 'who', 'why', 'will', 'with', 'you',
  '的', '了', '是', '在', '和', '与', '或', '及', '也', '吗', '呢', '吧', '啊', '怎么', '怎样', '如何',
  '什么', '哪些', '哪个', '为什么', '是否', '可以', '一个', '这个', '那个',
]);

let segmenter: Jieba | null = null;
const HAN = /\p{Script=Han}/u;
const LETTERS = String.raw`(?:(?!\p{Script=Han})[\p{L}\p{N}])+`;
const IDENTIFIER = new RegExp(`${LETTERS}(?:[._\\-]+${LETTERS})*`, 'gu');

/** The reference's words of a text, in order, repeats kept (term frequencies count them). */
export function referenceWords(text: string): string[] {
  segmenter ??= Jieba.withDict(dict);
  const words: string[] = [];
  const keep = (word: string) => {
    if (!STOP_WORDS.has(word)) words.push(word);
  };
  if (HAN.test(text)) for (const word of segmenter.cutForSearch(text, true)) if (HAN.test(word)) keep(word);
  for (const [match] of text.matchAll(IDENTIFIER)) {
    const parts = match.split(/[._-]+|(?<=\p{Ll})(?=\p{Lu})/u);
    if (parts.length > 1) words.push(match.toLowerCase());
    for (const part of parts)
      if (!STOP_WORDS.has(part.toLowerCase())) words.push(stemmer(part.toLowerCase()));
  }
  return words;
}

/** A record's title: its own, else the front matter's `title:`, else its first Markdown heading. */
export function referenceTitle(record: { title: string; text: string }): string {
  return declaredTitle(record) ?? /^#{1,6}\s+(.+?)\s*#*\s*$/m.exec(record.text)?.[1] ?? '';
}

/** The record's own title or its front matter's `title:`, if it has either. */
export function declaredTitle(record: { title: string; text: string }): string | null {
  if (record.title.trim()) return record.title;
  const frontMatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(record.text)?.[1] ?? '';
  return /^title:\s*["']?(.+?)["']?\s*$/m.exec(frontMatter)?.[1] ?? null;
}

function counts(words: readonly string[]): Map<string, number> {
  const tf = new Map<string, number>();
  for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
  return tf;
}

export class Bm25fReference {
  private readonly ids: string[] = [];
  /** word → [document, pseudo term frequency tf~] pairs, flattened. */
  private readonly postings = new Map<string, number[]>();

  constructor(records: readonly { id: string; title: string; text: string }[]) {
    const fields = records.map((r) => [
      counts(referenceWords(referenceTitle(r))),
      counts(referenceWords(r.text)),
    ]);
    const lengthOf = (tf: Map<string, number>) => [...tf.values()].reduce((a, b) => a + b, 0);
    const average = [0, 1].map(
      (f) => fields.reduce((sum, d) => sum + lengthOf(d[f]!), 0) / records.length || 1,
    );
    const weights = [BM25F.titleWeight, BM25F.textWeight];
    records.forEach((record, doc) => {
      this.ids.push(record.id);
      const pseudo = new Map<string, number>();
      fields[doc]!.forEach((tf, f) => {
        const norm = 1 - BM25F.b + (BM25F.b * lengthOf(tf)) / average[f]!;
        for (const [word, n] of tf) pseudo.set(word, (pseudo.get(word) ?? 0) + (weights[f]! * n) / norm);
      });
      for (const [word, tf] of pseudo) {
        const list = this.postings.get(word) ?? [];
        list.push(doc, tf);
        this.postings.set(word, list);
      }
    });
  }

  /** Document ids by descending BM25F score (documents matching no query word are left out). */
  search(query: string, k = 100): string[] {
    return this.scored(query, k).map((d) => d.id);
  }

  scored(query: string, k = 100): { id: string; score: number }[] {
    const scores = new Map<number, number>();
    const n = this.ids.length;
    for (const word of new Set(referenceWords(query))) {
      const list = this.postings.get(word);
      if (!list) continue;
      const df = list.length / 2;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (let i = 0; i < list.length; i += 2) {
        const tf = list[i + 1]!;
        scores.set(list[i]!, (scores.get(list[i]!) ?? 0) + (idf * tf) / (BM25F.k1 + tf));
      }
    }
    return [...scores]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, k)
      .map(([doc, score]) => ({ id: this.ids[doc]!, score }));
  }
}
