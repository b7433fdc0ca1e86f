/**
 * The tiny test model as catalogue entries (an embedder and a reranker from one repository) and as
 * a repository the fake hub serves. Pins come from the manifest build_models.py writes, so they
 * match whatever bytes this machine's Python built.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CatalogEntry } from '../../core/models/catalog';
import type { HubRepo } from '../fakes/fake-hub';
import { ensureTinyModel, type TinyManifest } from './test-models';

export const TINY_REPO = 'cairn/tiny-zh-en';
export const TINY_COMMIT = createHash('sha1').update('cairn-tiny').digest('hex');
export const TINY_EMBEDDER = 'cairn-tiny-zh-en';
export const TINY_RERANKER = 'cairn-tiny-reranker';

function pinned(manifest: TinyManifest, path: string, role: 'onnx' | 'tokenizer' | 'config') {
  const file = manifest.files[path];
  if (!file) throw new Error(`the tiny model has no ${path}`);
  return { path, role, size: file.size, sha256: file.sha256 };
}

export function tinyCatalogEntries(manifest: TinyManifest = ensureTinyModel().manifest): CatalogEntry[] {
  const common = {
    source: { repo: TINY_REPO, revision: TINY_COMMIT },
    upstream: 'made by scripts/models/build_models.py tiny',
    licence: 'MIT',
    languages: ['zh', 'en'],
    quality: [
      { metric: 'none', value: 'test model: synonym groups share embedding rows', source: 'build_models.py' },
    ],
    pinSource: 'manifest.json written by build_models.py',
  };
  return [
    {
      ...common,
      kind: 'embedder',
      id: TINY_EMBEDDER,
      name: 'Cairn tiny test embedder',
      summary: {
        en: 'Test model made by the project (useless for real search).',
        zh: '项目自制的测试模型（不用于真实搜索）。',
      },
      files: [
        pinned(manifest, manifest.embedder.file, 'onnx'),
        pinned(manifest, 'tokenizer.json', 'tokenizer'),
        pinned(manifest, 'tokenizer_config.json', 'config'),
      ],
      dimensions: manifest.dimensions,
      maxTokens: manifest.maxTokens,
      maxWindows: 3,
      pooling: 'mean',
      normalize: true,
      queryPrefix: '',
      documentPrefix: '',
      output: manifest.embedder.output,
      // Measured on the tiny model: texts sharing no concept meet at ≤ 0.22, a query sharing one of
      // two concepts with a note at ≥ 0.63, paraphrases at ≥ 0.94.
      similarityFloor: 0.4,
      floorSource: 'calibrated on the tiny model in models/local-search.integration.test.ts',
      recipe: 'r1',
      cpuMsPerChunk: 1,
      separateQueryLane: true,
    },
    {
      ...common,
      kind: 'reranker',
      id: TINY_RERANKER,
      name: 'Cairn tiny test reranker',
      summary: { en: 'Test reranker made by the project.', zh: '项目自制的测试重排序模型。' },
      files: [
        pinned(manifest, manifest.reranker.file, 'onnx'),
        pinned(manifest, 'tokenizer.json', 'tokenizer'),
      ],
      maxTokens: manifest.maxTokens,
      maxQueryTokens: 32,
      output: manifest.reranker.output,
      cpuMsPerPair: 0.5,
      autoEnable: true,
    },
  ];
}

/** The tiny model's files as the fake hub's repository. */
export function tinyHubRepo(): HubRepo {
  const { dir, manifest } = ensureTinyModel();
  const files = new Map(Object.keys(manifest.files).map((path) => [path, readFileSync(join(dir, path))]));
  return { repo: TINY_REPO, commit: TINY_COMMIT, files };
}

/** Writes the entries where CAIRN_MODEL_CATALOG can point; returns the path. */
export function writeTinyCatalog(path: string): string {
  writeFileSync(path, JSON.stringify(tinyCatalogEntries(), null, 2));
  return path;
}
