import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentExplanation, SearchResponse } from '@shared/models';
import { createCairn } from '../../core/app/create-cairn';
import type { Cairn } from '../../core/app/cairn';
import { silentLogger } from '../../core/logging/logger';
import { runCli } from '../../testing/run-cli';
import { parseDateFlags } from '../date-flags';

let cairn: Cairn;
let base: string;

async function note(folder: string, name: string, text: string, modified: string): Promise<void> {
  const path = join(base, folder, name);
  await writeFile(path, text);
  await utimes(path, new Date(modified), new Date(modified));
}

beforeAll(async () => {
  cairn = await createCairn({ scheduler: false, env: {}, logger: silentLogger() });
  base = await mkdtemp(join(tmpdir(), 'cairn-cli-filters-'));
  await mkdir(join(base, 'work'));
  await mkdir(join(base, '家庭'));
  await note(
    'work',
    'plan.md',
    '---\ntags: [项目, roadmap]\n---\n# Launch plan\n\nThe launch plan.\n',
    '2026-01-10',
  );
  await note('work', 'old.md', '# Old launch plan\n\nAn old launch plan.\n', '2020-06-01');
  await note(
    '家庭',
    'trip.md',
    '---\ntags: [旅行]\n---\n# Trip plan\n\nThe launch plan for the trip.\n',
    '2025-08-01',
  );
  for (const folder of ['work', '家庭'])
    expect((await runCli(['add-folder', join(base, folder)], { cairn })).code).toBe(0);
  expect((await runCli(['sync'], { cairn })).code).toBe(0);
}, 300_000);

afterAll(async () => {
  await cairn.dispose();
  await rm(base, { recursive: true, force: true });
});

async function found(args: string[]): Promise<string[]> {
  const run = await runCli(['search', 'launch plan', '--json', ...args], { cairn });
  expect(run.code).toBe(0);
  const response = (JSON.parse(run.stdout) as { value: SearchResponse }).value;
  return response.documents.map((d) => d.best.title).sort();
}

describe('cairn search filters', () => {
  it('filters by tag, knowledge base (any case), connection (any case), platform and modified date', async () => {
    expect(await found([])).toEqual(['Launch plan', 'Old launch plan', 'Trip plan']);
    expect(await found(['--tag', '项目'])).toEqual(['Launch plan']);
    expect(await found(['--tag', '旅行', '--tag', 'ROADMAP'])).toEqual(['Launch plan', 'Trip plan']);
    expect(await found(['--kb', 'WORK'])).toEqual(['Launch plan', 'Old launch plan']);
    expect(await found(['--kb', '家庭', '--platform', 'folder'])).toEqual(['Trip plan']);
    expect(await found(['--connection', 'WORK'])).toEqual(['Launch plan', 'Old launch plan']);
    expect(await found(['--connection', 'work', '--connection', '家庭', '--tag', '旅行'])).toEqual([
      'Trip plan',
    ]);
    expect(await found(['--connection', 'work', '--kb', '家庭'])).toEqual([]);
    expect(await found(['--since', '2020-01-01', '--until', '2020-12-31'])).toEqual(['Old launch plan']);
    expect(await found(['--since', '2025-08-01', '--until', '2025-08-01'])).toEqual(['Trip plan']);
  });

  it('keeps the JSON of an unfiltered search as it was, and says when filters are on', async () => {
    const plain = JSON.parse((await runCli(['search', 'launch plan', '--json'], { cairn })).stdout);
    expect(Object.keys(plain.value).sort()).toEqual([
      'connectionNamesById',
      'documents',
      'hits',
      'tookMs',
      'totalDocuments',
      'warnings',
    ]);
    const text = await runCli(['search', 'launch plan', '--tag', 'nothing-has-this'], { cairn });
    expect(text.stdout).toMatch(/^No results match these filters\.\n0 documents \(filtered\) in \d+ ms\n$/);
  });

  it('refuses bad dates, platforms and unknown connections and knowledge bases with a clear message', async () => {
    const since = await runCli(['search', 'plan', '--since', 'last week'], { cairn });
    expect({ code: since.code, line: since.stderr.split('\n')[0] }).toEqual({
      code: 2,
      line: 'cairn search: --since takes a date (2026-03-01), a date and time (2026-03-01T09:00:00Z) or a time back from now (7d, 2w, 3m, 1y), not "last week".',
    });
    expect((await runCli(['search', 'plan', '--until', '2026-02-30'], { cairn })).code).toBe(2);
    const order = await runCli(['search', 'plan', '--since', '2026-03-01', '--until', '2026-01-01'], {
      cairn,
    });
    expect(order.stderr).toContain('--since (2026-03-01) must be earlier than --until (2026-01-01).');
    const platform = await runCli(['search', 'plan', '--platform', 'notion'], { cairn });
    expect({ code: platform.code, line: platform.stderr.split('\n')[0] }).toEqual({
      code: 2,
      line: 'cairn search: --platform must be one of folder, feishu, lark, yuque, dingtalk, ima, not "notion".',
    });
    const refused = async (args: string[]) =>
      JSON.parse((await runCli(['search', 'plan', ...args, '--json'], { cairn })).stdout);
    expect(await refused(['--kb', 'nope'])).toEqual({
      ok: false,
      error: {
        code: 'NOT_FOUND',
        message: 'No knowledge base named "nope". Knowledge bases: "work", "家庭".',
      },
    });
    expect(await refused(['--connection', 'nope'])).toEqual({
      ok: false,
      error: { code: 'NOT_FOUND', message: 'No connection named "nope". Connections: work, 家庭.' },
    });
    expect(await refused(['--platform', 'yuque'])).toEqual({
      ok: false,
      error: {
        code: 'NOT_FOUND',
        message: 'No connection of platform "yuque". Connections: work (folder), 家庭 (folder).',
      },
    });
  });
});

describe('parseDateFlags', () => {
  it('reads local dates (until includes its day), durations back from now and ISO date-times', () => {
    const now = new Date(2026, 2, 15, 12, 0, 0);
    expect(parseDateFlags('2026-03-01', '2026-03-01', now)).toEqual({
      modifiedAfter: new Date(2026, 2, 1).toISOString(),
      modifiedBefore: new Date(2026, 2, 2).toISOString(),
    });
    expect(parseDateFlags('7d', undefined, now)).toEqual({
      modifiedAfter: new Date(2026, 2, 8, 12).toISOString(),
    });
    expect(parseDateFlags('1y', '2026-03-10T08:00:00+08:00', now)).toEqual({
      modifiedAfter: new Date(2025, 2, 15, 12).toISOString(),
      modifiedBefore: '2026-03-10T00:00:00.000Z',
    });
    expect(parseDateFlags(undefined, undefined, now)).toEqual({});
  });
});

describe('cairn search: operators, sort and --explain', () => {
  it('applies "exact phrase" and -exclude, and sorts by modified date', async () => {
    expect(await found(['--sort', 'modified'])).toEqual(['Launch plan', 'Old launch plan', 'Trip plan']);
    const run = await runCli(['search', 'launch plan', '--sort', 'modified', '--json'], { cairn });
    const newest = (JSON.parse(run.stdout) as { value: SearchResponse }).value.documents.map(
      (d) => d.best.title,
    );
    expect(newest).toEqual(['Launch plan', 'Trip plan', 'Old launch plan']);
    const excluded = await runCli(['search', 'launch plan -old', '--json'], { cairn });
    expect(
      (JSON.parse(excluded.stdout) as { value: SearchResponse }).value.documents
        .map((d) => d.best.title)
        .sort(),
    ).toEqual(['Launch plan', 'Trip plan']);
    const phrase = await runCli(['search', '"plan for the trip"', '--json'], { cairn });
    expect(
      (JSON.parse(phrase.stdout) as { value: SearchResponse }).value.documents.map((d) => d.best.title),
    ).toEqual(['Trip plan']);
    expect((await runCli(['search', 'x', '--sort', 'newest'], { cairn })).stderr).toMatch(
      /--sort must be relevance or modified/,
    );
  });

  it('--explain names the filter that left a document out, its words and ranks (text and --json)', async () => {
    const text = await runCli(['search', 'launch plan', '--since', '2025-01-01', '--explain', 'old launch'], {
      cairn,
    });
    expect(text.code).toBe(0);
    const lines = text.stdout.split('\n');
    expect(lines[0]).toMatch(/^"Old launch plan" \(d\d+\) — work · work \(folder\)$/);
    expect(lines.slice(1, 4)).toEqual([
      'Query: "launch plan" — not found',
      '  ✗ Left out by the modified-date filter (from 2025-01-01).',
      'Words: launch ✓ · plan ✓',
    ]);
    expect(text.stdout).toMatch(/Keyword: not in the top 30 \(BM25 \d\.\d{3}/);
    expect(text.stdout).toMatch(/Best passage: Old launch plan\n {3}# Old launch plan An old launch plan\./);

    const json = await runCli(['search', 'launch plan', '--explain', 'Trip plan', '--json'], { cairn });
    const explanation = (JSON.parse(json.stdout) as { value: DocumentExplanation }).value;
    const shown = await runCli(['search', 'launch plan', '--json'], { cairn });
    const at = (JSON.parse(shown.stdout) as { value: SearchResponse }).value.documents.findIndex(
      (d) => d.best.title === 'Trip plan',
    );
    expect(explanation).toMatchObject({
      outcome: 'shown',
      shownRank: at + 1,
      document: { title: 'Trip plan' },
    });

    const unknown = await runCli(['search', 'launch plan', '--explain', 'zeppelin'], { cairn });
    expect([unknown.code, unknown.stderr]).toEqual([
      1,
      'cairn: No indexed document is titled or numbered "zeppelin". (NOT_FOUND)\n',
    ]);
  });
});
