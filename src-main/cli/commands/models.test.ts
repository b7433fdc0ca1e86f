import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCairn, type CairnInternals } from '../../core/app/create-cairn';
import { silentLogger } from '../../core/logging/logger';
import { startFakeHub, type FakeHub } from '../../testing/fakes/fake-hub';
import { ensureTinyModel } from '../../testing/models/test-models';
import {
  TINY_EMBEDDER,
  TINY_RERANKER,
  tinyHubRepo,
  writeTinyCatalog,
} from '../../testing/models/tiny-catalog';
import { runCli } from '../../testing/run-cli';

let scratch: string;
let hub: FakeHub;
let cairn: CairnInternals;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'cairn-cli-models-'));
  hub = await startFakeHub({ repos: [tinyHubRepo()] });
  // No mirror in the environment: the download source is the setting (Hugging Face) unless --mirror says otherwise.
  cairn = await createCairn({
    env: { CAIRN_MODEL_CATALOG: writeTinyCatalog(join(scratch, 'catalog.json')) },
    scheduler: false,
    logger: silentLogger(),
  });
}, 180_000);

afterAll(async () => {
  await cairn?.dispose();
  await hub?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const json = (text: string) =>
  JSON.parse(text) as {
    ok: boolean;
    value?: { models: { id: string }[]; installed?: { verified: boolean } };
    error?: { code: string };
  };

describe('cairn models', () => {
  it('lists the catalogue with sizes, licences, speed and what is installed', async () => {
    const human = await runCli(['models', 'list'], { cairn });
    const listed = json((await runCli(['models', 'list', '--json'], { cairn })).stdout);
    expect({
      code: human.code,
      mentions: [
        'bge-small-zh-v1.5 (default)',
        'bge-m3 (best)',
        'MIT',
        'chunks/s/core',
        'import only',
        'huggingface https://huggingface.co',
      ].filter((text) => !human.stdout.includes(text)),
      ids: listed.value?.models.map((m) => m.id),
    }).toEqual({
      code: 0,
      mentions: [],
      ids: [
        'bge-small-zh-v1.5',
        'multilingual-e5-small',
        'bge-m3',
        'mmarco-mminilmv2-l12',
        'bge-reranker-base',
        'bge-reranker-v2-m3',
        TINY_EMBEDDER,
        TINY_RERANKER,
      ],
    });
  });

  it('pulls from the mirror given by --mirror, verified, and prints how to use it', async () => {
    const pulled = await runCli(['models', 'pull', TINY_EMBEDDER, '--mirror', hub.url], { cairn });
    const again = json(
      (await runCli(['models', 'pull', TINY_RERANKER, '--mirror', hub.url, '--json'], { cairn })).stdout,
    );
    expect({
      code: pulled.code,
      says: pulled.stdout.includes(`CAIRN_EMBED_PROVIDER=local CAIRN_EMBED_MODEL=${TINY_EMBEDDER}`),
      json: { ok: again.ok, installed: again.value?.installed?.verified },
      fromMirror: hub.requests.some((r) => r.path.startsWith('/cairn/tiny-zh-en/resolve/')),
    }).toEqual({ code: 0, says: true, json: { ok: true, installed: true }, fromMirror: true });
  });

  it('fails with the hub’s error and exit code 1 when the mirror does not have the model', async () => {
    const missing = await runCli(['models', 'pull', 'bge-small-zh-v1.5', '--mirror', hub.url, '--json'], {
      cairn,
    });
    expect({ code: missing.code, error: json(missing.stdout).error?.code }).toEqual({
      code: 1,
      error: 'NOT_FOUND',
    });
  });

  it('imports from a folder, removes, and refuses an unknown id', async () => {
    const folder = join(scratch, 'usb');
    mkdirSync(folder);
    const { dir } = ensureTinyModel();
    for (const name of ['reranker.onnx', 'tokenizer.json']) copyFileSync(join(dir, name), join(folder, name));
    const removed = await runCli(['models', 'remove', TINY_RERANKER], { cairn });
    const imported = await runCli(['models', 'import', TINY_RERANKER, folder], { cairn });
    const unknown = await runCli(['models', 'pull', 'no-such-model'], { cairn });
    const usage = await runCli(['models', 'fetch'], { cairn });
    expect({
      removed: removed.code,
      imported: [imported.code, imported.stdout.includes('every file verified')],
      unknown: [unknown.code, unknown.stderr.includes('No model "no-such-model"')],
      usage: usage.code,
    }).toEqual({ removed: 0, imported: [0, true], unknown: [1, true], usage: 2 });
  });
});
