import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeHub, type FakeHub } from '../../testing/fakes/fake-hub';
import { TINY_EMBEDDER, tinyCatalogEntries, tinyHubRepo } from '../../testing/models/tiny-catalog';
import { ModelCatalog, type CatalogEntry } from './catalog';
import { endpointFromUrl } from './hub-client';
import { pullModel, type PullProgress } from './model-download';
import { ModelStore } from './model-store';

let hub: FakeHub;
let root: string;
let store: ModelStore;
let entry: CatalogEntry;

beforeEach(async () => {
  hub = await startFakeHub({ repos: [tinyHubRepo()] });
  root = mkdtempSync(join(tmpdir(), 'cairn-models-'));
  store = new ModelStore(join(root, 'models'));
  entry = new ModelCatalog(tinyCatalogEntries()).get(TINY_EMBEDDER);
});

afterEach(async () => {
  await hub.close();
  rmSync(root, { recursive: true, force: true });
});

const pull = (options: Partial<Parameters<typeof pullModel>[0]> = {}) =>
  pullModel({ store, entry, endpoint: endpointFromUrl(hub.url), retryDelayMs: 10, ...options });

const failure = (promise: Promise<unknown>): Promise<{ code?: string; message: string }> =>
  promise.then(
    () => ({ code: 'none', message: '' }),
    (error: { code?: string; message: string }) => ({ code: error.code, message: error.message }),
  );

describe('pullModel from a Hugging Face-layout hub', () => {
  it('follows the CDN and relative redirects, verifies every file and installs the model in one step', async () => {
    const progress: PullProgress[] = [];
    const record = await pull({ onProgress: (p) => progress.push(p) });
    const onnx = entry.files.find((f) => f.role === 'onnx')!;
    expect({
      installed: store.installed(TINY_EMBEDDER)?.files.map((f) => [f.path, f.verified]),
      origin: record.origin,
      redirects: [...new Set(hub.requests.map((r) => r.status))].sort(),
      left: readdirSync(store.root).sort(),
      lastProgress: progress.at(-1)?.phase,
      sawBytes: progress.some((p) => p.phase === 'downloading' && p.doneBytes >= onnx.size!),
    }).toEqual({
      installed: [
        ['model.onnx', true],
        ['tokenizer.json', true],
        ['tokenizer_config.json', true],
      ],
      origin: { kind: 'download', where: `${hub.url}/cairn/tiny-zh-en`, revision: entry.source!.revision },
      redirects: [200, 302, 307],
      left: ['.downloads', TINY_EMBEDDER],
      lastProgress: 'installing',
      sawBytes: true,
    });
  });

  it('uses the ModelScope layout for a ModelScope endpoint (its default branch, same checksums)', async () => {
    const endpoint = { base: hub.url, layout: 'modelscope' as const };
    await pull({ endpoint });
    expect({
      installed: store.installed(TINY_EMBEDDER) !== null,
      paths: hub.requests.filter((r) => r.path.includes('/resolve/')).map((r) => r.path),
    }).toEqual({
      installed: true,
      paths: [
        '/models/cairn/tiny-zh-en/resolve/master/model.onnx',
        '/models/cairn/tiny-zh-en/resolve/master/tokenizer.json',
        '/models/cairn/tiny-zh-en/resolve/master/tokenizer_config.json',
      ],
    });
  });

  it('resumes an interrupted download with a Range request and installs the exact bytes', async () => {
    hub.dropAfter(100_000);
    await pull();
    const cdn = hub.requests.filter((r) => r.path.startsWith('/cdn/'));
    // It resumes where its file ends: what the client had read when the connection closed (≤ the 100,000 bytes sent).
    const resumedAt = Number(/^bytes=(\d+)-$/.exec(cdn[1]?.range ?? '')?.[1]);
    expect({
      firstRange: cdn[0]?.range,
      resumedWithin: resumedAt > 0 && resumedAt <= 100_000,
      statuses: cdn.map((r) => r.status),
      installed: store.installed(TINY_EMBEDDER)?.files[0]?.sha256 === entry.files[0]?.sha256,
    }).toEqual({ firstRange: null, resumedWithin: true, statuses: [200, 206], installed: true });
  });

  it('keeps the partial file of a cancelled pull, and the next pull continues from it', async () => {
    hub.dropAfter(150_000, 10);
    const first = await failure(pull({ retries: 0 }));
    const partial = join(store.partialDirOf(TINY_EMBEDDER), 'model.onnx');
    const kept = existsSync(partial) ? statSync(partial).size : 0;
    hub.dropAfter(0, 0);
    await pull();
    expect({
      first: first.code,
      keptSome: kept > 0 && kept <= 150_000,
      resumedAt: hub.requests.filter((r) => r.path.startsWith('/cdn/')).at(-1)?.range,
      installed: store.installed(TINY_EMBEDDER) !== null,
      partialsLeft: existsSync(store.partialDirOf(TINY_EMBEDDER)),
    }).toEqual({
      first: 'DOWNLOAD_INTERRUPTED',
      keptSome: true,
      resumedAt: `bytes=${kept}-`,
      installed: true,
      partialsLeft: false,
    });
  });

  it('starts a file again when the server ignores Range (200 instead of 206)', async () => {
    hub.dropAfter(120_000);
    hub.ignoreRange(true);
    await pull();
    expect(store.installed(TINY_EMBEDDER)?.files.every((f) => f.verified)).toBe(true);
  });

  it('deletes a file whose checksum does not match and installs nothing', async () => {
    hub.corrupt('model.onnx');
    const result = await failure(pull());
    expect({
      code: result.code,
      says: /SHA-256 .* not the catalogue's/.test(result.message),
      installed: existsSync(store.dirOf(TINY_EMBEDDER)),
      partial: existsSync(join(store.partialDirOf(TINY_EMBEDDER), 'model.onnx')),
    }).toEqual({ code: 'CHECKSUM_MISMATCH', says: true, installed: false, partial: false });
  });

  it('names the missing repository, revision or file (404 with the hub’s error code)', async () => {
    const wrongRepo = { ...entry, source: { ...entry.source!, repo: 'cairn/nope' } } as CatalogEntry;
    const wrongRevision = {
      ...entry,
      source: { ...entry.source!, revision: 'f'.repeat(40) },
    } as CatalogEntry;
    const results = [
      await failure(pull({ entry: wrongRepo })),
      await failure(pull({ entry: wrongRevision })),
    ];
    expect(results.map((r) => [r.code, /RepoNotFound|RevisionNotFound/.exec(r.message)?.[0]])).toEqual([
      ['NOT_FOUND', 'RepoNotFound'],
      ['NOT_FOUND', 'RevisionNotFound'],
    ]);
  });

  it('says the hub is unreachable when nothing answers (offline, wrong mirror)', async () => {
    await hub.close();
    const result = await failure(pull());
    expect({ code: result.code, mentions: result.message.includes('mirror') }).toEqual({
      code: 'SOURCE_UNREACHABLE',
      mentions: true,
    });
    hub = await startFakeHub({ repos: [] });
  });

  it('refuses to start without enough free disk space, before downloading anything', async () => {
    const result = await failure(pull({ freeBytes: () => 1024 * 1024 }));
    expect({ code: result.code, requests: hub.requests.length }).toEqual({ code: 'DISK_FULL', requests: 0 });
  });

  it('refuses an entry without checksums (only an explicit import may install it)', async () => {
    const unpinned = { ...entry, files: entry.files.map((f) => ({ ...f, sha256: null })) } as CatalogEntry;
    const result = await failure(pull({ entry: unpinned }));
    expect({
      code: result.code,
      hint: result.message.includes('--allow-unverified'),
      requests: hub.requests.length,
    }).toEqual({
      code: 'UNVERIFIED',
      hint: true,
      requests: 0,
    });
  });

  it('stops on cancel and reports it as cancelled', async () => {
    const controller = new AbortController();
    const pending = failure(pull({ signal: controller.signal, onProgress: () => controller.abort() }));
    expect((await pending).code).toBe('CANCELLED');
    expect(existsSync(store.dirOf(TINY_EMBEDDER))).toBe(false);
  });
});

describe('ModelStore.clean after a crash', () => {
  it('removes a staging folder and a model folder without a complete record, and keeps partial downloads', async () => {
    await pull();
    mkdirSync(join(store.root, '.staging-x-1234'), { recursive: true });
    writeFileSync(join(store.root, '.staging-x-1234', 'model.onnx'), 'half');
    mkdirSync(join(store.root, 'broken-model'));
    writeFileSync(join(store.root, 'broken-model', 'model.onnx'), 'no record');
    // An installed model whose file was cut short (a crash while copying it by hand).
    const cut = join(store.dirOf(TINY_EMBEDDER), 'model.onnx');
    writeFileSync(cut, readFileSync(cut).subarray(0, 10));
    mkdirSync(join(store.partialDirOf('other'), 'onnx'), { recursive: true });
    expect({ report: store.clean(), left: readdirSync(store.root).sort() }).toEqual({
      report: { staging: ['.staging-x-1234'], halfInstalled: ['broken-model', TINY_EMBEDDER].sort() },
      left: ['.downloads'],
    });
  });
});
