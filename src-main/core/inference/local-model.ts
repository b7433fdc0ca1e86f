/**
 * One installed model, loaded into onnxruntime: embeds texts (prefix → tokenize → windows →
 * batches → encoder → pooling → L2) and scores (query, passage) pairs with a cross-encoder
 * (sigmoid of the logit, as FlagEmbedding's `normalize=True`). Runs in whatever thread creates
 * it; the app creates it inside a worker (workers/worker-embedder.ts).
 */
import { join } from 'node:path';
import { CairnError } from '../errors';
import { loadModelTokenizer, type ModelTokenizer } from './model-tokenizer';
import { createSession, int64Tensor, type OrtSession } from './onnx-runtime';
import { l2Normalize, meanOf, poolHidden, rowsOf } from './pooling';
import type { EmbedderRuntimeSpec, LocalModelSpec, RerankerRuntimeSpec } from './runtime-spec';
import { batchesOf, padBatch, pairSequence, textWindows, type Sequence } from './sequences';

/** Sequences per encoder call; attention memory grows with batch × length², so 8 at 512 tokens (≈1.1 GB peak at 16). */
const MAX_BATCH = 8;

export interface LocalModel {
  /** `shouldStop` is checked between encoder calls: a cancelled job stops within one batch. */
  embed(texts: string[], kind: 'document' | 'query', shouldStop?: () => boolean): Promise<Float32Array[]>;
  rerank(query: string, passages: string[], shouldStop?: () => boolean): Promise<number[]>;
  /** Tokens each text would be embedded with before windowing (cost estimates, tests). */
  countTokens(texts: string[]): number[];
  dispose(): Promise<void>;
}

interface Loaded<S> {
  spec: S;
  session: OrtSession;
  tokenizer: ModelTokenizer;
}

async function load<S extends { dir: string; onnx: string; tokenizer: string }>(
  spec: S,
  threads: number,
): Promise<Loaded<S>> {
  const tokenizer = loadModelTokenizer(spec.dir, spec.tokenizer);
  const session = await createSession(join(spec.dir, spec.onnx), threads);
  return { spec, session, tokenizer };
}

async function run(loaded: Loaded<{ output: string }>, batch: Sequence[]) {
  const padded = padBatch(batch, loaded.tokenizer.frame.padId);
  const dims = [padded.size, padded.width];
  const feeds: Record<string, Awaited<ReturnType<typeof int64Tensor>>> = {};
  for (const name of loaded.session.inputNames) {
    if (name === 'input_ids') feeds[name] = await int64Tensor(padded.ids, dims);
    else if (name === 'attention_mask') feeds[name] = await int64Tensor(padded.mask, dims);
    else if (name === 'token_type_ids') feeds[name] = await int64Tensor(padded.types, dims);
    else throw new CairnError('UNSUPPORTED', `The model asks for an input Cairn does not provide: ${name}.`);
  }
  const outputs = await loaded.session.run(feeds);
  const output = outputs[loaded.spec.output] ?? outputs[loaded.session.outputNames[0] ?? ''];
  if (!output) throw new CairnError('INTERNAL', `The model returned no "${loaded.spec.output}" output.`);
  return { data: output.data as Float32Array, dims: output.dims, mask: padded.mask };
}

function stopIf(shouldStop?: () => boolean): void {
  if (shouldStop?.()) throw new CairnError('CANCELLED', 'Cancelled.');
}

async function embedWith(
  loaded: Loaded<EmbedderRuntimeSpec>,
  texts: string[],
  kind: 'document' | 'query',
  shouldStop?: () => boolean,
): Promise<Float32Array[]> {
  const { spec, tokenizer } = loaded;
  const prefix = kind === 'query' ? spec.queryPrefix : spec.documentPrefix;
  // A query is one window: a search must not pay for several.
  const windows = kind === 'query' ? 1 : spec.maxWindows;
  const sequences = texts.flatMap((text, owner) =>
    textWindows(tokenizer.ids(prefix + text), tokenizer.frame, spec.maxTokens, windows, owner),
  );
  const pooled = new Map<Sequence, Float32Array>();
  for (const batch of batchesOf(sequences, MAX_BATCH, MAX_BATCH * spec.maxTokens)) {
    stopIf(shouldStop);
    const { data, dims, mask } = await run(loaded, batch);
    const vectors = dims.length === 3 ? poolHidden(data, dims, mask, spec.pooling) : rowsOf(data, dims);
    batch.forEach((sequence, i) =>
      pooled.set(sequence, spec.normalize ? l2Normalize(vectors[i]!) : vectors[i]!),
    );
  }
  const byOwner: Float32Array[][] = texts.map(() => []);
  for (const sequence of sequences) byOwner[sequence.owner]!.push(pooled.get(sequence)!);
  return byOwner.map((vectors) => (vectors.length === 1 ? vectors[0]! : meanOf(vectors, spec.normalize)));
}

async function rerankWith(
  loaded: Loaded<RerankerRuntimeSpec>,
  query: string,
  passages: string[],
  shouldStop?: () => boolean,
): Promise<number[]> {
  const { spec, tokenizer } = loaded;
  const queryIds = tokenizer.ids(query);
  const sequences = passages.map((passage, owner) =>
    pairSequence(
      queryIds,
      tokenizer.ids(passage),
      tokenizer.frame,
      spec.maxTokens,
      spec.maxQueryTokens,
      owner,
    ),
  );
  const scores = new Array<number>(passages.length).fill(0);
  for (const batch of batchesOf(sequences, MAX_BATCH, MAX_BATCH * spec.maxTokens)) {
    stopIf(shouldStop);
    const { data } = await run(loaded, batch);
    batch.forEach((sequence, i) => {
      scores[sequence.owner] = 1 / (1 + Math.exp(-(data[i] ?? 0)));
    });
  }
  return scores;
}

export async function createLocalModel(spec: LocalModelSpec): Promise<LocalModel> {
  const embedder = spec.embedder ? await load(spec.embedder, spec.threads) : null;
  let reranker: Loaded<RerankerRuntimeSpec> | null = null;
  let rerankerLoading: Promise<Loaded<RerankerRuntimeSpec>> | null = null;
  const rerankerOf = () => {
    if (!spec.reranker) throw new CairnError('INVALID_ARGUMENT', 'This model runs no reranker.');
    rerankerLoading ??= load(spec.reranker, spec.threads).then((value) => (reranker = value));
    return rerankerLoading;
  };
  return {
    embed: async (texts, kind, shouldStop) => {
      if (!embedder) throw new CairnError('INVALID_ARGUMENT', 'This model runs no embedder.');
      return embedWith(embedder, texts, kind, shouldStop);
    },
    rerank: async (query, passages, shouldStop) =>
      rerankWith(await rerankerOf(), query, passages, shouldStop),
    countTokens: (texts) =>
      embedder ? texts.map((text) => embedder.tokenizer.ids(embedder.spec.documentPrefix + text).length) : [],
    dispose: async () => {
      await embedder?.session.release();
      await reranker?.session.release();
    },
  };
}
