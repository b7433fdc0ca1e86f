/**
 * `cairn sync` with a semantic model: the data directory opened by the command builds the vectors
 * of what it synced, and the command waits for them (progress, then a summary line), so a one-shot
 * sync leaves a finished semantic index rather than keyword search only.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReindexStatus } from '@shared/models';
import { createCairn, type CairnInternals } from '../../core/app/create-cairn';
import {
  startFakeEmbeddingServer,
  type FakeEmbeddingServer,
} from '../../core/embedding/fake-embedding-server';
import { silentLogger } from '../../core/logging/logger';
import type { OpenCairnOptions } from '../open-cairn';
import { runCli } from '../../testing/run-cli';
import { describeIndex } from './status';

let root: string;
let notes: string;
let server: FakeEmbeddingServer;
let cairn: CairnInternals;

beforeAll(async () => {
  // Each embedding request answers late, so vectors are still being built when a sync ends.
  server = await startFakeEmbeddingServer({ apiKey: 'sk-sync-semantic-0042', latencyMs: 300 });
  root = await mkdtemp(join(tmpdir(), 'cairn-sync-semantic-'));
  notes = join(root, 'notes');
  await mkdir(notes);
  for (let i = 0; i < 8; i++)
    await writeFile(
      join(notes, `guide-${i}.md`),
      `# Guide ${i}\n\nThe installer wizard sets up step ${i}.\n\n## 报销 ${i}\n\n第${i}步：提交发票。\n`,
    );
  cairn = await createCairn({ scheduler: false, buildSemanticIndex: true, env: {}, logger: silentLogger() });
  const chosen = await cairn.api.settings.update({
    embedding: {
      provider: 'custom',
      baseUrl: server.baseUrl,
      model: 'text-embedding-v3',
      dimensions: 1024,
      apiKey: server.apiKey,
    },
  });
  if (!chosen.ok) throw new Error(chosen.error.message);
  await cairn.whenIdle();
  const added = await cairn.api.connections.add({
    platform: 'folder',
    name: 'notes',
    mode: 'rag',
    config: { path: notes },
    secrets: {},
  });
  if (!added.ok) throw new Error(added.error.message);
}, 300_000);

afterAll(async () => {
  await cairn?.dispose();
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

describe('cairn sync with a semantic model', () => {
  it('opens the data directory to build vectors, and returns once every synced chunk has one', async () => {
    const opened: OpenCairnOptions[] = [];
    const run = await runCli(['sync', 'notes', '--json'], { cairn, opened });
    expect(run.code).toBe(0);
    expect(opened.map((o) => o.semanticIndex)).toEqual([true]);
    const { semantic } = (JSON.parse(run.stdout) as { value: { semantic: ReindexStatus } }).value;
    expect(semantic).toMatchObject({
      running: false,
      activeSpace: 'custom/text-embedding-v3/1024',
      error: null,
    });
    expect(semantic.total).toBeGreaterThanOrEqual(8);
    expect(semantic.done).toBe(semantic.total);
    const found = await cairn.api.search.query({ query: 'installer wizard' });
    if (!found.ok) throw new Error(found.error.message);
    expect(found.value.semantic).toEqual({
      space: 'custom/text-embedding-v3/1024',
      covered: semantic.total,
      total: semantic.total,
    });
  });

  it('says how far the semantic index got after the runs, in words', async () => {
    await writeFile(join(notes, 'guide-3.md'), '# Guide 3\n\nThe installer wizard now asks twice.\n');
    const run = await runCli(['sync'], { cairn });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /\nSemantic index \(custom\/text-embedding-v3\/1024\): (\d+)\/\1 chunks have vectors\n$/,
    );
  });

  it('cairn status names the semantic model in effect on its Index line', async () => {
    const run = await runCli(['status'], { cairn });
    expect(run.stdout).toContain('\nIndex: keyword + semantic (custom/text-embedding-v3/1024)\n');
    expect(run.stdout).toContain('\nChat: none\n');
  });
});

describe('the Index line of cairn status', () => {
  const status = (patch: object) => ({
    running: false,
    done: 1200,
    total: 5000,
    activeSpace: 'local/bge-small-zh-v1.5/512',
    pendingSpace: null,
    ...patch,
  });
  it('says building only while this or another process builds, and where the rest will be built otherwise', () => {
    expect(describeIndex(status({ running: true, etaSeconds: 600 }))).toBe(
      'keyword + semantic (local/bge-small-zh-v1.5/512) (building local/bge-small-zh-v1.5/512: 1,200/5,000 chunks, about 10 min left)',
    );
    expect(describeIndex(status({}))).toBe(
      'keyword + semantic (local/bge-small-zh-v1.5/512) (local/bge-small-zh-v1.5/512: 1,200/5,000 chunks have vectors; the rest is built while the app, `cairn serve` or `cairn sync` runs)',
    );
    expect(describeIndex(status({ paused: true }))).toBe(
      'keyword + semantic (local/bge-small-zh-v1.5/512) (paused at 1,200/5,000 chunks)',
    );
    expect(
      describeIndex(
        status({
          activeSpace: '',
          error: 'The embedding provider dashscope needs an API key; search uses the vectors that exist.',
        }),
      ),
    ).toBe(
      'keyword search · The embedding provider dashscope needs an API key; search uses the vectors that exist.',
    );
  });
});
