/**
 * The local model catalogue's shape and lookups. Entries (catalog-entries.ts) pin a repository
 * revision and the size and SHA-256 of every file Cairn downloads; where no citable source gave a
 * value it is null and the entry says so. A file without a SHA-256 is never downloaded: only an
 * explicit import may install it (docs/decisions/local-models.md, "Unknown checksums").
 *
 * CAIRN_MODEL_CATALOG names a JSON file of extra entries in the same shape (a team's own ONNX
 * exports, the fake hub's test model); they are validated like the built-in ones.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { CairnError } from '../errors';
import { BUILTIN_CATALOG } from './catalog-entries';

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a lowercase hex SHA-256');
const bilingual = z.object({ en: z.string(), zh: z.string() });

const fileSchema = z.object({
  path: z.string().regex(/^(?!\/)(?!.*\.\.)[\w./-]+$/, 'a relative path inside the repository'),
  size: z.int().positive().nullable(),
  sha256: sha256.nullable(),
  role: z.enum(['onnx', 'tokenizer', 'config']),
  /** Only on this CPU architecture (process.arch). */
  arch: z.enum(['x64', 'arm64']).optional(),
});

const baseSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]{1,63}$/),
  name: z.string(),
  summary: bilingual,
  /** Where the files come from: a Hugging Face-layout repository at a 40-hex commit; null = import only. */
  source: z.object({ repo: z.string(), revision: z.string().regex(/^[0-9a-f]{40}$/) }).nullable(),
  /** A ModelScope copy, when one with the same files is known. Otherwise ModelScope is tried at the same repo id. */
  modelScope: z.object({ repo: z.string(), revision: z.string() }).optional(),
  /** The model the files were converted from (provenance). */
  upstream: z.string(),
  files: z.array(fileSchema).min(1),
  licence: z.string(),
  languages: z.array(z.string()).min(1),
  /** Published quality, each with its source; nothing here was measured with real weights. */
  quality: z.array(z.object({ metric: z.string(), value: z.string(), source: z.string() })),
  /** Where the revision and checksums come from. */
  pinSource: z.string(),
  recommended: z.enum(['default', 'multilingual', 'best', 'fast', 'slow-best']).optional(),
});

const embedderSchema = baseSchema.extend({
  kind: z.literal('embedder'),
  dimensions: z.int().min(1).max(4000),
  maxTokens: z.int().min(8),
  maxWindows: z.int().min(1).max(8),
  pooling: z.enum(['cls', 'mean', 'last']),
  normalize: z.boolean(),
  queryPrefix: z.string(),
  documentPrefix: z.string(),
  output: z.string(),
  /** Cosine below which a vector hit is noise (models/search-tuning.ts). */
  similarityFloor: z.number().min(-1).max(1),
  /** How the floor was set: calibrated (on which model and data), or provisional and why. */
  floorSource: z.string(),
  /** Bumped when prefixes, pooling or windows change: part of the embedding space's name. */
  recipe: z.string().regex(/^r\d+$/),
  /** Measured here with a random-weight model of this architecture (npm run bench -- --models). */
  cpuMsPerChunk: z.number().positive(),
  /** A second, query-only copy of the model in memory (so a search never waits behind indexing). */
  separateQueryLane: z.boolean(),
});

const rerankerSchema = baseSchema.extend({
  kind: z.literal('reranker'),
  maxTokens: z.int().min(8),
  maxQueryTokens: z.int().min(1),
  output: z.string(),
  /** CPU milliseconds per (query, passage) pair at maxTokens, measured here; the budget check starts from it. */
  cpuMsPerPair: z.number().positive(),
  /** Used without being chosen when it is the only reranker installed ("on by default when installed"). */
  autoEnable: z.boolean(),
});

export const catalogEntrySchema = z.discriminatedUnion('kind', [embedderSchema, rerankerSchema]);

export type CatalogEntry = z.infer<typeof catalogEntrySchema>;
export type EmbedderEntry = z.infer<typeof embedderSchema>;
export type RerankerEntry = z.infer<typeof rerankerSchema>;
export type CatalogFile = z.infer<typeof fileSchema>;

/** The files of `entry` this machine needs (architecture-specific ONNX variants filtered). */
export function filesFor(entry: CatalogEntry, arch: string = process.arch): CatalogFile[] {
  return entry.files.filter((file) => !file.arch || file.arch === arch);
}

export function onnxFileOf(entry: CatalogEntry, arch: string = process.arch): CatalogFile {
  const file = filesFor(entry, arch).find((f) => f.role === 'onnx');
  if (!file)
    throw new CairnError('UNSUPPORTED', `${entry.name} has no ONNX file for ${process.platform}-${arch}.`);
  return file;
}

/** True when every file has a pinned revision, size-independent SHA-256: it may be downloaded. */
export function isPinned(entry: CatalogEntry, arch: string = process.arch): boolean {
  return entry.source !== null && filesFor(entry, arch).every((file) => file.sha256 !== null);
}

export function downloadSize(entry: CatalogEntry, arch: string = process.arch): number | null {
  const files = filesFor(entry, arch);
  return files.every((f) => f.size !== null) ? files.reduce((sum, f) => sum + (f.size ?? 0), 0) : null;
}

export class ModelCatalog {
  constructor(readonly entries: readonly CatalogEntry[]) {
    const ids = new Set<string>();
    for (const entry of entries) {
      if (ids.has(entry.id))
        throw new CairnError('INVALID_ARGUMENT', `Two catalogue entries are named ${entry.id}.`);
      ids.add(entry.id);
    }
  }

  find(id: string): CatalogEntry | null {
    return this.entries.find((entry) => entry.id === id) ?? null;
  }

  get(id: string): CatalogEntry {
    const entry = this.find(id);
    if (!entry)
      throw new CairnError(
        'NOT_FOUND',
        `No model "${id}" in the catalogue (known: ${this.entries.map((e) => e.id).join(', ')}).`,
      );
    return entry;
  }

  embedder(id: string): EmbedderEntry {
    const entry = this.get(id);
    if (entry.kind !== 'embedder')
      throw new CairnError('INVALID_ARGUMENT', `${id} is a reranker, not an embedding model.`);
    return entry;
  }

  reranker(id: string): RerankerEntry {
    const entry = this.get(id);
    if (entry.kind !== 'reranker')
      throw new CairnError('INVALID_ARGUMENT', `${id} is an embedding model, not a reranker.`);
    return entry;
  }
}

/** The built-in catalogue plus the entries of CAIRN_MODEL_CATALOG (a JSON array), validated. */
export function loadCatalog(env: Record<string, string | undefined> = {}): ModelCatalog {
  const extraPath = env.CAIRN_MODEL_CATALOG?.trim();
  if (!extraPath) return new ModelCatalog(BUILTIN_CATALOG);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(extraPath, 'utf8'));
  } catch (error) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `CAIRN_MODEL_CATALOG: cannot read ${extraPath}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const parsed = z.array(catalogEntrySchema).safeParse(raw);
  if (!parsed.success)
    throw new CairnError(
      'INVALID_ARGUMENT',
      `CAIRN_MODEL_CATALOG (${extraPath}): ${z.prettifyError(parsed.error)}`,
    );
  return new ModelCatalog([...BUILTIN_CATALOG, ...parsed.data]);
}
