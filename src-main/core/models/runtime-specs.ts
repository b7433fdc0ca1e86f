/** Runtime specs (what the worker loads) for an installed catalogue entry, and the space its vectors live in. */
import { join } from 'node:path';
import type { EmbeddingSpace } from '../embedding/embedder';
import { CairnError } from '../errors';
import { filesFor, onnxFileOf, type CatalogEntry, type EmbedderEntry, type RerankerEntry } from './catalog';
import type { InstallRecord } from './model-store';
import type { EmbedderRuntimeSpec, RerankerRuntimeSpec } from '../inference/runtime-spec';

export const LOCAL_PROVIDER = 'local';

function fileOf(entry: CatalogEntry, role: 'onnx' | 'tokenizer'): string {
  const file = role === 'onnx' ? onnxFileOf(entry) : filesFor(entry).find((f) => f.role === role);
  if (!file) throw new CairnError('UNSUPPORTED', `${entry.name} has no ${role} file.`);
  return file.path;
}

/**
 * The embedding space of an embedder: its id, the first 8 hex digits of its ONNX file's SHA-256
 * (the weights, whether downloaded or imported), and its recipe (prefixes, pooling, windows), so
 * other weights or another recipe can never share a vector table with these.
 */
export function localSpace(entry: EmbedderEntry, record: InstallRecord | null): EmbeddingSpace {
  const onnx = fileOf(entry, 'onnx');
  const sha = record?.files.find((f) => f.path === onnx)?.sha256 ?? onnxFileOf(entry).sha256 ?? 'unknown';
  return {
    provider: LOCAL_PROVIDER,
    model: `${entry.id}@${sha.slice(0, 8)}.${entry.recipe}`,
    dimensions: entry.dimensions,
  };
}

/** The catalogue id inside a local space's model name (`bge-small-zh-v1.5@15b717c3.r1` → `bge-small-zh-v1.5`). */
export function catalogIdOfSpace(space: EmbeddingSpace): string | null {
  return space.provider === LOCAL_PROVIDER ? (space.model.split('@')[0] ?? null) : null;
}

export function embedderSpec(entry: EmbedderEntry, dir: string): EmbedderRuntimeSpec {
  return {
    dir,
    onnx: fileOf(entry, 'onnx'),
    tokenizer: fileOf(entry, 'tokenizer'),
    output: entry.output,
    pooling: entry.pooling,
    normalize: entry.normalize,
    maxTokens: entry.maxTokens,
    maxWindows: entry.maxWindows,
    queryPrefix: entry.queryPrefix,
    documentPrefix: entry.documentPrefix,
  };
}

export function rerankerSpec(entry: RerankerEntry, dir: string): RerankerRuntimeSpec {
  return {
    dir,
    onnx: fileOf(entry, 'onnx'),
    tokenizer: fileOf(entry, 'tokenizer'),
    output: entry.output,
    maxTokens: entry.maxTokens,
    maxQueryTokens: entry.maxQueryTokens,
  };
}

export function installDir(root: string, id: string): string {
  return join(root, id);
}
