/**
 * `npx tsx bench/model-vectors.ts --out <file> [--count 100000] [--queries 200] [--tokens 96]
 * [--dimensions 512|1024] <collection dir> ...`: vectors whose distribution resembles a real
 * model's, for measuring vector storage and indexes (issue #26 item 3), where no real weights can
 * be downloaded. Real text (the collections' records, cut into windows of at most --tokens tokens)
 * goes through a random-weight ONNX graph with exactly bge-small-zh-v1.5's architecture (4 layers,
 * hidden 512; built by scripts/models/build_models.py arch --int8, as `npm run bench -- --models`
 * builds it) and its CLS pooling, L2-normalised. Its tokenizer is BERT's basic one (lower case,
 * every CJK character a token, words split at punctuation) with a WordPiece vocabulary of the
 * corpus' own most frequent CJK characters and words (21,128 entries, the model's vocabulary size)
 * instead of the 200-word test fixture, so different texts get different token ids as they would
 * with the real vocabulary. What this gives is the geometry of a transformer's pooled output over
 * real text (anisotropic, clustered by shared tokens), not a model's semantics: it is for recall and
 * cost of vector formats and indexes, never for retrieval quality.
 *
 * --dimensions 1024 maps each 512-dimension output through one fixed random Gaussian matrix to
 * 1,024 dimensions (renormalised): the width of the default API models (DashScope v3), with the
 * same neighbourhoods (a random projection keeps inner products up to small noise).
 *
 * Queries are the collections' real queries (queries.jsonl), embedded the same way.
 * File: int32 count, int32 queries, int32 dimensions, then float32 vectors (documents, then queries).
 */
import { closeSync, existsSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createSession, int64Tensor } from '../src-main/core/inference/onnx-runtime';
import { seededRandom } from '../src-main/testing/seeded-random';
import { REPO_ROOT } from './report';

const VOCABULARY = 21_128;
const SPECIALS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
const MODEL = join(REPO_ROOT, '.cache', 'bench-models', 'bge-small-zh-v1.5', 'int8', 'model.onnx');
const BATCH = 16;

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;

/** BERT's basic tokenisation: lower case, CJK characters alone, words split at punctuation. */
export function basicTokens(text: string): string[] {
  const tokens: string[] = [];
  for (const piece of text.toLowerCase().split(/\s+/)) {
    let word = '';
    for (const char of piece) {
      if (CJK.test(char) || /[\p{P}\p{S}]/u.test(char)) {
        if (word) tokens.push(word);
        word = '';
        tokens.push(char);
      } else word += char;
    }
    if (word) tokens.push(word);
  }
  return tokens;
}

export class CorpusWordPiece {
  private readonly ids = new Map<string, number>();

  constructor(texts: Iterable<string>) {
    const counts = new Map<string, number>();
    for (const text of texts)
      for (const token of basicTokens(text)) counts.set(token, (counts.get(token) ?? 0) + 1);
    const vocabulary = [...SPECIALS];
    // Every single character and its continuation form, so any word can be spelled out.
    const characters = new Set<string>();
    for (const token of counts.keys()) for (const char of token) characters.add(char);
    for (const char of characters) {
      vocabulary.push(char);
      if (!CJK.test(char)) vocabulary.push(`##${char}`);
    }
    const words = [...counts.entries()]
      .filter(([token]) => [...token].length > 1)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    for (const [word] of words) {
      if (vocabulary.length >= VOCABULARY) break;
      vocabulary.push(word);
    }
    vocabulary.slice(0, VOCABULARY).forEach((token, id) => this.ids.set(token, id));
  }

  /** Greedy longest-match WordPiece ids of one basic token. */
  private pieces(token: string): number[] {
    const whole = this.ids.get(token);
    if (whole !== undefined) return [whole];
    const chars = [...token];
    const out: number[] = [];
    for (let start = 0; start < chars.length;) {
      let end = chars.length;
      let id: number | undefined;
      for (; end > start; end--) {
        const piece = (start > 0 ? '##' : '') + chars.slice(start, end).join('');
        id = this.ids.get(piece);
        if (id !== undefined) break;
      }
      if (id === undefined) return [1];
      out.push(id);
      start = end;
    }
    return out;
  }

  ids_(text: string): number[] {
    return basicTokens(text).flatMap((token) => this.pieces(token));
  }
}

function readTexts(dir: string, file: 'corpus.jsonl' | 'queries.jsonl'): string[] {
  const path = join(dir, file);
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      const record = JSON.parse(line) as { title?: string; text?: string };
      return [record.title, record.text].filter(Boolean).join('\n');
    });
}

function normalise(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum) || 1;
  for (let i = 0; i < v.length; i++) v[i] = v[i]! / norm;
  return v;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      out: { type: 'string' },
      count: { type: 'string', default: '100000' },
      queries: { type: 'string', default: '200' },
      tokens: { type: 'string', default: '96' },
      dimensions: { type: 'string', default: '512' },
    },
  });
  if (!values.out || positionals.length === 0)
    throw new Error('usage: model-vectors.ts --out <file> [--count N] <collection dir> ...');
  if (!existsSync(MODEL))
    throw new Error(
      `${MODEL} is missing: /usr/bin/python3 scripts/models/build_models.py arch --model bge-small-zh-v1.5 --int8 --out .cache/bench-models`,
    );
  const count = Number(values.count);
  const maxTokens = Number(values.tokens);
  const dimensions = Number(values.dimensions);
  const records = positionals.flatMap((dir) => readTexts(dir, 'corpus.jsonl'));
  const tokenizer = new CorpusWordPiece(records);
  // Windows of every record in turn (round robin over records), so the first `count` mix all corpora.
  const tokenized = records.map((text) => tokenizer.ids_(text));
  const windows: number[][] = [];
  for (let offset = 0; windows.length < count; offset += maxTokens) {
    let added = 0;
    for (const ids of tokenized) {
      if (offset >= ids.length || windows.length >= count) continue;
      windows.push(ids.slice(offset, offset + maxTokens));
      added += 1;
    }
    if (added === 0) break;
  }
  const random = seededRandom(26);
  const allQueries = positionals.flatMap((dir) => readTexts(dir, 'queries.jsonl'));
  const queries = Array.from(
    { length: Math.min(Number(values.queries), allQueries.length) },
    () => allQueries[Math.floor(random() * allQueries.length)]!,
  ).map((text) => tokenizer.ids_(text).slice(0, maxTokens));
  process.stderr.write(
    `${windows.length} windows of ≤${maxTokens} tokens from ${records.length} records, ${queries.length} queries\n`,
  );
  const session = await createSession(MODEL, 1);
  const gaussian = () => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
  const projection =
    dimensions === 512
      ? null
      : Array.from({ length: dimensions }, () => Float32Array.from({ length: 512 }, gaussian));
  const fd = openSync(values.out, 'w');
  const header = new Int32Array([windows.length, queries.length, dimensions]);
  writeSync(fd, new Uint8Array(header.buffer));
  const all = [...windows, ...queries];
  const started = performance.now();
  for (let start = 0; start < all.length; start += BATCH) {
    const batch = all.slice(start, start + BATCH).map((ids) => [2, ...ids, 3]);
    const length = Math.max(...batch.map((ids) => ids.length));
    const flat = (fill: (ids: number[], i: number) => number) =>
      BigInt64Array.from(batch.flatMap((ids) => Array.from({ length }, (_, i) => BigInt(fill(ids, i)))));
    const feeds = {
      input_ids: await int64Tensor(
        flat((ids, i) => ids[i] ?? 0),
        [batch.length, length],
      ),
      attention_mask: await int64Tensor(
        flat((ids, i) => (i < ids.length ? 1 : 0)),
        [batch.length, length],
      ),
      token_type_ids: await int64Tensor(
        flat(() => 0),
        [batch.length, length],
      ),
    };
    const output = await session.run(feeds);
    const hidden = output[session.outputNames[0]!]!.data as Float32Array;
    const width = hidden.length / (batch.length * length);
    const out = new Float32Array(batch.length * dimensions);
    batch.forEach((_, row) => {
      const cls = normalise(hidden.slice(row * length * width, row * length * width + width));
      const vector = projection
        ? normalise(
            Float32Array.from(projection, (weights) => weights.reduce((s, w, i) => s + w * cls[i]!, 0)),
          )
        : cls;
      out.set(vector, row * dimensions);
    });
    writeSync(fd, new Uint8Array(out.buffer));
    if ((start / BATCH) % 200 === 0)
      process.stderr.write(
        `${start + batch.length}/${all.length} in ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
      );
  }
  closeSync(fd);
  await session.release();
}

if (process.argv[1]?.endsWith('model-vectors.ts'))
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
