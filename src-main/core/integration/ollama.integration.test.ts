/** The one-click Ollama choice: detection against a fake Ollama, then indexing and search through it. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCairn, type CairnInternals } from '../app/create-cairn';
import { silentLogger } from '../logging/logger';
import { detectOllama } from '../models/ollama-detect';
import { startFakeOllama, type FakeOllama } from '../../testing/fakes/fake-ollama';
import { syncToEnd, unwrap } from '../../testing/integration-kit';

let scratch: string;
let ollama: FakeOllama;
let cairn: CairnInternals;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'cairn-ollama-'));
  mkdirSync(join(scratch, 'notes'));
  writeFileSync(join(scratch, 'notes', 'a.md'), '# Expenses\n\nSubmit the travel expense form by Friday.');
  ollama = await startFakeOllama();
  // A loaded test machine can take longer than the 1.5 s a desktop waits for a local Ollama.
  cairn = await createCairn({
    env: {},
    scheduler: false,
    // Vectors are built in the background where the scheduler runs; without one the test asks for the builder.
    buildSemanticIndex: true,
    logger: silentLogger(),
    ollama: { baseUrl: ollama.url, timeoutMs: 30_000 },
  });
}, 180_000);

afterAll(async () => {
  await cairn?.dispose();
  await ollama?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('Ollama on this machine', () => {
  it('offers only the pulled models that embed, with their vector width', async () => {
    expect(unwrap(await cairn.api.models.detectOllama())).toEqual({
      baseUrl: ollama.url,
      reachable: true,
      models: [{ name: 'bge-m3:latest', dimensions: 1024 }],
    });
  });

  it('says so when nothing answers', async () => {
    expect(await detectOllama({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 500 })).toEqual({
      baseUrl: 'http://127.0.0.1:9',
      reachable: false,
      models: [],
    });
  });

  it('indexes and searches through the chosen Ollama model in one step', async () => {
    const { models } = unwrap(await cairn.api.models.detectOllama());
    unwrap(
      await cairn.api.settings.update({
        embedding: {
          provider: 'ollama',
          baseUrl: `${ollama.url}/v1`,
          model: models[0]!.name,
          dimensions: models[0]!.dimensions,
        },
      }),
    );
    const connection = unwrap(
      await cairn.api.connections.add({
        platform: 'folder',
        name: 'notes',
        mode: 'rag',
        config: { path: join(scratch, 'notes') },
        secrets: {},
      }),
    );
    const run = await syncToEnd(cairn, connection.id);
    const embedCalls = () =>
      ollama.requests.filter((r) => r.path === '/v1/embeddings' && r.model === 'bge-m3:latest').length;
    const beforeSearch = embedCalls();
    const found = unwrap(await cairn.api.search.query({ query: 'travel expense' }));
    expect({
      run: run.status,
      space: unwrap(await cairn.api.app.status()).reindex.activeSpace,
      indexedThroughOllama: beforeSearch > 0,
      queryEmbeddedThroughOllama: embedCalls() - beforeSearch,
      found: found.hits[0]?.title,
    }).toEqual({
      run: 'succeeded',
      space: 'ollama/bge-m3:latest/1024',
      indexedThroughOllama: true,
      queryEmbeddedThroughOllama: 1,
      found: 'Expenses',
    });
  });
});
