/**
 * Test models made by the project's own scripts at test time (never committed): the tiny embedder
 * + reranker + tokenizer (scripts/models/build_models.py tiny) and the tokenizer fixtures
 * (scripts/models/make_tokenizers.py). They need Debian's python3-onnx (and python3-sentencepiece,
 * python3-regex for the fixtures); `.ci/run` installs them and `npm test` names them when missing.
 *
 * Built once into .cache/test-models/<name>-<hash of the script>, through a temporary folder and a
 * rename, so parallel test files never see half a model and a changed script rebuilds.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export const REPO_ROOT = join(import.meta.dirname, '..', '..', '..');
const SCRIPTS = join(REPO_ROOT, 'scripts', 'models');
const CACHE = join(REPO_ROOT, '.cache', 'test-models');

/** Debian's interpreter: a pyenv `python3` earlier on PATH does not see Debian's python3-onnx. */
export const PYTHON = process.env.CAIRN_PYTHON ?? '/usr/bin/python3';

export const PYTHON_INSTALL_HINT =
  'sudo apt-get install -y python3-onnx python3-sentencepiece python3-regex (what .ci/run does); set CAIRN_PYTHON for another interpreter';

/** Null when the Python modules the model scripts need are importable; else what to install. */
export function pythonModelToolsMissing(modules = ['onnx', 'numpy']): string | null {
  try {
    execFileSync(PYTHON, ['-c', modules.map((m) => `import ${m}`).join('; ')], { stdio: 'ignore' });
    return null;
  } catch {
    return `The test models are built with ${PYTHON} and the Python modules ${modules.join(', ')}: ${PYTHON_INSTALL_HINT}.`;
  }
}

function buildOnce(name: string, script: string, args: (out: string) => string[], modules: string[]): string {
  const hash = createHash('sha256')
    .update(readFileSync(join(SCRIPTS, script)))
    .digest('hex')
    .slice(0, 12);
  const target = join(CACHE, `${name}-${hash}`);
  if (existsSync(target)) return target;
  const missing = pythonModelToolsMissing(modules);
  if (missing) throw new Error(missing);
  mkdirSync(CACHE, { recursive: true });
  const temporary = join(CACHE, `.building-${name}-${randomBytes(4).toString('hex')}`);
  try {
    execFileSync(PYTHON, [join(SCRIPTS, script), ...args(temporary)], { stdio: 'pipe' });
    try {
      renameSync(temporary, target);
    } catch (error) {
      // Another test file built it at the same time: theirs is as good as ours.
      if (!existsSync(target)) throw error;
    }
  } finally {
    rmSync(temporary, { recursive: true, force: true });
  }
  return target;
}

export interface TinyManifest {
  id: string;
  dimensions: number;
  maxTokens: number;
  pooling: 'mean';
  embedder: { file: string; output: string };
  reranker: { file: string; output: string };
  concepts: string[][];
  files: Record<string, { size: number; sha256: string }>;
}

/** The tiny test model (≈0.5 MB: embedder, reranker, WordPiece tokenizer) and its manifest. */
export function ensureTinyModel(): { dir: string; manifest: TinyManifest } {
  const dir = buildOnce('tiny', 'build_models.py', (out) => ['tiny', '--out', out], ['onnx', 'numpy']);
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as TinyManifest;
  return { dir, manifest };
}

/** Hand-made WordPiece / Unigram (real SentencePiece charsmap) / BPE tokenizer.json fixtures with SentencePiece's gold ids. */
export function ensureTokenizerFixtures(): string {
  return buildOnce('tokenizers', 'make_tokenizers.py', (out) => ['--out', out], ['sentencepiece', 'regex']);
}
