/**
 * `npx tsx bench/random-weight-model.ts [--model bge-small-zh-v1.5] [--out <dir>]`: makes an
 * importable local model out of the random-weight int8 graph with exactly the named catalogue
 * model's architecture (bench/model-speed.ts builds it) and the project's BERT-Chinese-style
 * WordPiece tokenizer fixture, so `npm run eval` can run the whole local path (worker, windows,
 * pooling, floor, fusion) here, where no real weights can be downloaded.
 *
 * What such a run measures is SPEED (index and query time of the real pipeline); its quality
 * figures are noise by construction (random weights, a 200-word vocabulary). The entry is the
 * real one with another id and files, so recipe, windows, prefixes and pooling are the shipped ones.
 * Prints the catalogue file and the import and eval commands.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BUILTIN_CATALOG } from '../src-main/core/models/catalog-entries';
import type { CatalogEntry } from '../src-main/core/models/catalog';
import { ensureTokenizerFixtures, REPO_ROOT } from '../src-main/testing/models/test-models';
import { measureModel } from './model-speed';

const { values } = parseArgs({
  options: {
    model: { type: 'string', default: 'bge-small-zh-v1.5' },
    out: { type: 'string', default: join(REPO_ROOT, '.cache', 'random-weight-models') },
  },
});
const base = BUILTIN_CATALOG.find((entry) => entry.id === values.model);
if (base?.kind !== 'embedder' || base.pooling !== 'cls')
  throw new Error(
    `${values.model}: only the BERT-style (WordPiece, CLS) embedders have a matching tokenizer`,
  );

// Builds the int8 graph if it is not cached yet (a quick measurement on the way).
await measureModel(base, 'int8', true);
const id = `${base.id}-random`;
const folder = resolve(values.out, id);
mkdirSync(folder, { recursive: true });
const sources: Record<string, string> = {
  'model.onnx': join(REPO_ROOT, '.cache', 'bench-models', base.id, 'int8', 'model.onnx'),
  'tokenizer.json': join(ensureTokenizerFixtures(), 'wordpiece', 'tokenizer.json'),
  'tokenizer_config.json': join(ensureTokenizerFixtures(), 'wordpiece', 'tokenizer_config.json'),
};
const roles = {
  'model.onnx': 'onnx',
  'tokenizer.json': 'tokenizer',
  'tokenizer_config.json': 'config',
} as const;
const files = Object.entries(sources).map(([path, source]) => {
  copyFileSync(source, join(folder, path));
  return {
    path,
    role: roles[path as keyof typeof roles],
    size: statSync(source).size,
    sha256: createHash('sha256').update(readFileSync(source)).digest('hex'),
  };
});
const { recommended: _recommended, ...rest } = base;
const entry: CatalogEntry = {
  ...rest,
  id,
  name: `${base.name}, random weights (speed only)`,
  source: { repo: `cairn/${id}`, revision: createHash('sha1').update(id).digest('hex') },
  upstream: `random weights with ${base.id}'s architecture (scripts/models/build_models.py arch)`,
  files,
  quality: [{ metric: 'none', value: 'random weights: measures speed, not quality', source: 'this script' }],
  pinSource: 'computed by bench/random-weight-model.ts',
};
const catalog = resolve(values.out, 'catalog.json');
writeFileSync(catalog, `${JSON.stringify([entry], null, 2)}\n`);
process.stdout.write(
  [
    `catalogue: ${catalog}`,
    `import:    CAIRN_MODEL_CATALOG=${catalog} npx cairn --data-dir <dir> models import ${id} ${folder}`,
    `eval:      CAIRN_DATA_DIR=<dir> CAIRN_MODEL_CATALOG=${catalog} CAIRN_EMBED_PROVIDER=local CAIRN_EMBED_MODEL=${id} npm run eval -- <collection>`,
    '',
  ].join('\n'),
);
