/**
 * What the inference code needs to run one installed model: plain data, so it crosses into a
 * worker thread by structured clone. Built from a catalog entry and its install directory
 * (models/runtime-specs.ts); nothing here is read from the network.
 */

export type Pooling = 'cls' | 'mean' | 'last';

export interface EmbedderRuntimeSpec {
  /** Install directory; the file names below are relative to it. */
  dir: string;
  onnx: string;
  tokenizer: string;
  /** The graph output to pool, e.g. last_hidden_state. */
  output: string;
  pooling: Pooling;
  normalize: boolean;
  /** The model's window, special tokens included (text beyond it is cut or windowed). */
  maxTokens: number;
  /**
   * How many windows of `maxTokens` one text may take; their pooled vectors are averaged.
   * 1 = truncate (docs/decisions/local-models.md, "Windows").
   */
  maxWindows: number;
  queryPrefix: string;
  documentPrefix: string;
}

export interface RerankerRuntimeSpec {
  dir: string;
  onnx: string;
  tokenizer: string;
  output: string;
  /** The pair's length, special tokens included; only the passage is cut ("only_second"). */
  maxTokens: number;
  /** The query is cut to this many tokens first. */
  maxQueryTokens: number;
}

export interface LocalModelSpec {
  embedder?: EmbedderRuntimeSpec;
  reranker?: RerankerRuntimeSpec;
  /** onnxruntime intra-op threads for this lane (1 on 2-core machines: see the decision record). */
  threads: number;
}
