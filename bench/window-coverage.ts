/**
 * How much of each chunk a 512-token embedding window sees, on the eval collections and the bench
 * corpus, as the app chunks them (`tsx bench/window-coverage.ts [--json]`). Decides the window
 * strategy for local models (docs/decisions/local-models.md, "Windows").
 *
 * Token counts are ESTIMATES of bge-small-zh-v1.5's BERT-Chinese WordPiece (no real vocabulary can
 * be downloaded here): one token per CJK character and per punctuation mark, a Latin word
 * ceil(length / 4) pieces, a digit run ceil(length / 2). For cmrc2018 it also measures where the
 * answer sits: the sentence of the relevant passage sharing most character bigrams with the
 * question, and whether it starts past the first window.
 */
import { join } from 'node:path';
import { chunkMarkdown } from '../src-main/core/chunking/chunker';
import { embeddingInput } from '../src-main/core/index/embedding-input';
import { findSharedReference } from '../src-main/testing/shared-reference';
import { loadCollection, type CorpusRecord } from './collection';
import { generateDocument } from './corpus';

const WINDOW = 510; // 512 minus [CLS] and [SEP]

/** Estimated BERT-Chinese tokens of each character position: the token index it falls in. */
export function tokenOffsets(text: string): number[] {
  const offsets: number[] = new Array(text.length).fill(0);
  let tokens = 0;
  const pattern = /(\p{Script=Han})|([A-Za-z]+)|(\d+)|(\s+)|(.)/gsu;
  for (const match of text.matchAll(pattern)) {
    const start = match.index ?? 0;
    for (let i = start; i < start + match[0].length; i++) offsets[i] = tokens;
    if (match[2]) tokens += Math.ceil(match[2].length / 4);
    else if (match[3]) tokens += Math.ceil(match[3].length / 2);
    else if (!match[4]) tokens += 1;
  }
  offsets.push(tokens);
  return offsets;
}

interface Coverage {
  collection: string;
  chunks: number;
  medianTokens: number;
  p90Tokens: number;
  overWindow: number;
  /** Share of all chunk characters past the first window. */
  charsUnseen: number;
  windows: Record<'1' | '2' | '3' | '4+', number>;
  /** Tokens embedded with up to 3 windows ÷ tokens embedded with truncation (the encoder's cost, roughly). */
  windowsCost: number;
  answerPastWindow?: number;
}

function chunksOf(records: { title: string; markdown: string }[]): string[] {
  return records.flatMap((record) =>
    chunkMarkdown(record.markdown).map((chunk) =>
      embeddingInput({ title: record.title, headingPath: chunk.headingPath, text: chunk.text }),
    ),
  );
}

function coverage(collection: string, inputs: string[]): Coverage {
  const tokens = inputs.map((text) => tokenOffsets(text).at(-1)!).sort((a, b) => a - b);
  let unseen = 0;
  let total = 0;
  const truncated = tokens.reduce((sum, t) => sum + Math.min(t, WINDOW) + 2, 0);
  const windowed = tokens.reduce(
    (sum, t) => sum + Math.min(t, 3 * WINDOW) + 2 * Math.max(1, Math.min(3, Math.ceil(t / WINDOW))),
    0,
  );
  const windows = { '1': 0, '2': 0, '3': 0, '4+': 0 };
  for (const text of inputs) {
    const offsets = tokenOffsets(text);
    total += text.length;
    unseen += offsets.slice(0, -1).filter((t) => t >= WINDOW).length;
    const count = Math.max(1, Math.ceil(offsets.at(-1)! / WINDOW));
    windows[count >= 4 ? '4+' : (String(count) as '1' | '2' | '3')]++;
  }
  const share = (n: number) => Number((n / inputs.length).toFixed(3));
  return {
    collection,
    chunks: inputs.length,
    medianTokens: tokens[Math.floor(tokens.length / 2)] ?? 0,
    p90Tokens: tokens[Math.floor(tokens.length * 0.9)] ?? 0,
    overWindow: share(tokens.filter((t) => t > WINDOW).length),
    charsUnseen: Number((unseen / Math.max(1, total)).toFixed(3)),
    windows: {
      '1': share(windows['1']),
      '2': share(windows['2']),
      '3': share(windows['3']),
      '4+': share(windows['4+']),
    },
    windowsCost: Number((windowed / truncated).toFixed(3)),
  };
}

function bigrams(text: string): Set<string> {
  const chars = [...text.replace(/\s+/g, '')];
  return new Set(chars.slice(1).map((c, i) => chars[i] + c));
}

/** Share of questions whose best-matching sentence in their relevant passage starts past the window. */
function answerPastWindow(
  corpus: CorpusRecord[],
  queries: { id: string; text: string }[],
  qrels: Map<string, ReadonlyMap<string, number>>,
): number {
  const byId = new Map(corpus.map((record) => [record.id, record]));
  let past = 0;
  let counted = 0;
  for (const query of queries) {
    const relevant = [...(qrels.get(query.id)?.keys() ?? [])].map((id) => byId.get(id)).find(Boolean);
    if (!relevant) continue;
    const wanted = bigrams(query.text);
    let best = { score: -1, pastWindow: false };
    for (const chunk of chunkMarkdown(`# ${relevant.title}\n\n${relevant.text}`)) {
      const input = embeddingInput({
        title: relevant.title,
        headingPath: chunk.headingPath,
        text: chunk.text,
      });
      const offsets = tokenOffsets(input);
      for (const sentence of input.matchAll(/[^。！？!?\n]+[。！？!?]?/gu)) {
        const shared = [...bigrams(sentence[0])].filter((b) => wanted.has(b)).length;
        if (shared > best.score)
          best = { score: shared, pastWindow: (offsets[sentence.index ?? 0] ?? 0) >= WINDOW };
      }
    }
    counted++;
    if (best.pastWindow) past++;
  }
  return Number((past / Math.max(1, counted)).toFixed(3));
}

export function measureWindowCoverage(): Coverage[] {
  const results: Coverage[] = [];
  const shared = findSharedReference(join(import.meta.dirname, '..'), 'eval');
  for (const name of ['cmrc2018', 'scifact']) {
    if (!shared) break;
    const collection = loadCollection(`${shared}/${name}`);
    const records = collection.corpus.map((r) => ({ title: r.title, markdown: `# ${r.title}\n\n${r.text}` }));
    const result = coverage(name, chunksOf(records));
    if (name === 'cmrc2018')
      result.answerPastWindow = answerPastWindow(collection.corpus, collection.queries, collection.qrels);
    results.push(result);
  }
  const generated = Array.from({ length: 2000 }, (_, i) => {
    const document = generateDocument(i);
    return { title: document.title, markdown: document.markdown };
  });
  results.push(coverage('bench corpus (2,000 docs)', chunksOf(generated)));
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = measureWindowCoverage();
  if (process.argv.includes('--json')) console.log(JSON.stringify(results, null, 2));
  else console.table(results.map((r) => ({ ...r, windows: JSON.stringify(r.windows) })));
}
