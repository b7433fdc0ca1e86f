import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureTinyModel } from '../../testing/models/test-models';
import { TINY_EMBEDDER, tinyCatalogEntries } from '../../testing/models/tiny-catalog';
import { ModelCatalog, type CatalogEntry } from './catalog';
import { importModel } from './model-import';
import { ModelStore } from './model-store';

let root: string;
let store: ModelStore;
let entry: CatalogEntry;
let folder: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'cairn-import-'));
  store = new ModelStore(join(root, 'models'));
  entry = new ModelCatalog(tinyCatalogEntries()).get(TINY_EMBEDDER);
  // A flat folder, as a user copies files off a USB stick.
  folder = join(root, 'usb');
  mkdirSync(folder);
  const { dir } = ensureTinyModel();
  for (const name of ['model.onnx', 'tokenizer.json', 'tokenizer_config.json'])
    copyFileSync(join(dir, name), join(folder, name));
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => ({ code: 'none', message: '' }),
    (error: { code?: string; message: string }) => ({ code: error.code, message: error.message }),
  );

describe('importModel', () => {
  it('installs verified copies of the catalogue’s files from a folder', async () => {
    const record = await importModel({ store, entry, folder });
    expect({
      files: record.files.map((f) => [f.path, f.verified]),
      origin: record.origin.kind,
      installed: store.installed(TINY_EMBEDDER) !== null,
      sourceKept: existsSync(join(folder, 'model.onnx')),
    }).toEqual({
      files: [
        ['model.onnx', true],
        ['tokenizer.json', true],
        ['tokenizer_config.json', true],
      ],
      origin: 'import',
      installed: true,
      sourceKept: true,
    });
  });

  it('refuses a file with the wrong bytes and installs nothing', async () => {
    writeFileSync(join(folder, 'tokenizer.json'), '{}');
    const result = await failure(importModel({ store, entry, folder }));
    expect({ code: result.code, installed: existsSync(store.dirOf(TINY_EMBEDDER)) }).toEqual({
      code: 'CHECKSUM_MISMATCH',
      installed: false,
    });
  });

  it('installs files without a catalogue checksum only when the user allows it, and records them unverified', async () => {
    const unpinned = {
      ...entry,
      files: entry.files.map((f) => (f.role === 'onnx' ? { ...f, sha256: null } : f)),
    } as CatalogEntry;
    const refused = await failure(importModel({ store, entry: unpinned, folder }));
    const record = await importModel({ store, entry: unpinned, folder, allowUnverified: true });
    expect({
      refused: refused.code,
      listsHash: /model\.onnx \(SHA-256 [0-9a-f]{64}\)/.test(refused.message),
      verified: record.files.map((f) => [f.path, f.verified]),
    }).toEqual({
      refused: 'UNVERIFIED',
      listsHash: true,
      verified: [
        ['model.onnx', false],
        ['tokenizer.json', true],
        ['tokenizer_config.json', true],
      ],
    });
  });

  it('names the files a folder lacks', async () => {
    rmSync(join(folder, 'tokenizer.json'));
    const result = await failure(importModel({ store, entry, folder }));
    expect({ code: result.code, names: result.message.includes('tokenizer.json') }).toEqual({
      code: 'NOT_FOUND',
      names: true,
    });
  });
});
