import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionView, SearchResponse, StatusSnapshot } from '@shared/models';
import { createCairn, type CairnInternals } from '../../core/app/create-cairn';
import type { Connector, ConnectorFactory } from '../../core/connectors/connector';
import { defaultConnectorFactories } from '../../core/connectors/registry';
import { runCli } from '../../testing/run-cli';
import { serveOverSocket, type SocketServed } from '../../testing/socket-kit';
import type { SyncRunReport } from './sync';

let base: string;
let notes: string;
let cairn: CairnInternals;
/** Set when the commands reach Cairn through the instance socket, as beside a running `cairn serve`. */
let socket: SocketServed | null = null;

const cli = (
  argv: string[],
  options: { env?: NodeJS.ProcessEnv; tty?: boolean; signal?: AbortSignal } = {},
) => runCli(argv, { cairn, ...(socket ? { connect: socket.open } : {}), ...options });

function json<T>(stdout: string): { ok: true; value: T } {
  const parsed = JSON.parse(stdout) as { ok: boolean; value: T };
  if (!parsed.ok) throw new Error(stdout);
  return parsed as { ok: true; value: T };
}

/**
 * Every built-in connector now has full text, so a direct-only one is a test stand-in: DingTalk's
 * connector with its full text taken away (what a platform without a text API looks like).
 */
const directOnlyDingTalk: ConnectorFactory = (init) => {
  const real = defaultConnectorFactories().dingtalk!(init);
  return Object.assign(Object.create(real) as Connector, {
    capabilities: {
      ...real.capabilities,
      fullText: false,
      limitation: { code: 'test.direct-only', message: 'full text unavailable: a direct-only test platform' },
    },
  });
};

// Every command twice: in this process, and through the instance socket (another process's `cairn serve`).
describe.each(['in-process', 'socket'] as const)(
  'cairn commands over a real in-memory Cairn (%s)',
  (transport) => {
    beforeAll(async () => {
      cairn = await createCairn({
        scheduler: false,
        env: {},
        factories: { ...defaultConnectorFactories(), dingtalk: directOnlyDingTalk },
      });
      base = await mkdtemp(join(tmpdir(), 'cairn-cli-'));
      notes = join(base, 'notes');
      await mkdir(join(notes, '中文'), { recursive: true });
      await writeFile(join(notes, 'install.md'), '# Install Guide\n\nRun the installer on Linux.\n');
      await writeFile(join(notes, 'faq.md'), '# FAQ\n\nThe installer asks for a licence key.\n');
      await writeFile(join(notes, '中文', '报销.md'), '# 报销流程\n\n报销需要发票。\n');
      socket = transport === 'socket' ? await serveOverSocket(cairn) : null;
    }, 300_000);

    afterAll(async () => {
      await socket?.close();
      socket = null;
      await cairn.dispose();
      await rm(base, { recursive: true, force: true });
    });

    it('add-folder checks the folder first, then adds it; duplicates and missing folders fail clearly', async () => {
      const added = await cli(['add-folder', notes]);
      expect(added).toMatchObject({ code: 0, stderr: '' });
      expect(added.stdout).toMatch(
        /^Added folder "notes" \(id notes-[0-9a-f]{6}, rag mode\): Folder "notes" is readable: 3 files to index \(3 Markdown\)\.\nIndex it now with: cairn sync "notes"\n$/,
      );
      expect(await cli(['add-folder', notes])).toEqual({
        code: 1,
        stdout: '',
        stderr: 'cairn: A connection named "notes" already exists. (ALREADY_EXISTS)\n',
      });
      const missing = await cli(['add-folder', join(base, 'nope'), '--json']);
      expect({ code: missing.code, out: JSON.parse(missing.stdout) }).toEqual({
        code: 1,
        out: { ok: false, error: { code: 'NOT_FOUND', message: `Folder not found: ${join(base, 'nope')}` } },
      });
    });

    it('add keeps credentials out of the output and takes secrets from the environment', async () => {
      const run = await cli(
        [
          'add',
          'yuque',
          '--name',
          'Team Wiki',
          '--mode',
          'direct',
          '--base-url',
          'http://127.0.0.1:9/api/v2',
          '--json',
        ],
        { env: { CAIRN_TOKEN: 'yuque-token-secret' } },
      );
      expect(run.code).toBe(0);
      const view = json<ConnectionView>(run.stdout).value;
      expect(view).toMatchObject({
        platform: 'yuque',
        name: 'Team Wiki',
        mode: 'direct',
        config: { baseUrl: 'http://127.0.0.1:9/api/v2' },
        secretFields: ['token'],
      });
      expect(run.stdout).not.toContain('yuque-token-secret');
      expect(await cairn.secrets.get(`connection:${view.id}`)).toEqual({ token: 'yuque-token-secret' });
    });

    it('add turns a checkbox option on with its bare flag (DingTalk --stream-events)', async () => {
      const run = await cli(
        [
          'add',
          'dingtalk',
          '--name',
          'DT stream',
          '--mode',
          'direct',
          '--base-url',
          'http://127.0.0.1:9',
          '--app-key',
          'k1',
          '--operator-id',
          'u1',
          '--stream-events',
          '--json',
        ],
        { env: { CAIRN_APP_SECRET: 'dt-stream-secret-1' } },
      );
      const view = json<ConnectionView>(run.stdout).value;
      try {
        expect({ config: view.config, limitationCode: view.limitationCode }).toEqual({
          config: { baseUrl: 'http://127.0.0.1:9', appKey: 'k1', operatorId: 'u1', streamEvents: true },
          limitationCode: 'dingtalk.blocks-stream',
        });
      } finally {
        await cairn.api.connections.remove({ id: view.id });
      }
    });

    it('test checks a connection, and reports an unreachable platform as an error', async () => {
      expect(await cli(['test', 'notes'])).toEqual({
        code: 0,
        stdout: 'OK "notes": Folder "notes" is readable: 3 files to index (3 Markdown).\n',
        stderr: '',
      });
      expect(await cli(['test', 'team wiki'])).toEqual({
        code: 1,
        stdout: '',
        stderr:
          'cairn: Cannot reach Yuque at 127.0.0.1:9: check the base URL (http://127.0.0.1:9/api/v2) and your network. (Cannot reach 127.0.0.1:9 (fetch failed).) (SOURCE_UNREACHABLE)\n',
      });
      expect((await cli(['test', 'ghost'])).stderr).toBe(
        'cairn: No connection named "ghost". Connections: notes, Team Wiki. (NOT_FOUND)\n',
      );
    });

    it('sync prints the run counters, incrementally, with a progress bar only on a terminal', async () => {
      const first = await cli(['sync', 'notes', '--json']);
      expect(first.code).toBe(0);
      const [run] = json<{ runs: SyncRunReport[] }>(first.stdout).value.runs;
      expect({ name: run?.name, status: run?.status, counters: run?.counters }).toEqual({
        name: 'notes',
        status: 'succeeded',
        counters: {
          seen: 3,
          added: 3,
          updated: 0,
          unchanged: 0,
          deleted: 0,
          failed: 0,
          deferred: 0,
          skipped: 0,
          chunksWritten: 3,
        },
      });

      await writeFile(join(notes, 'faq.md'), '# FAQ\n\nThe installer asks for a licence key, twice.\n');
      await rm(join(notes, 'install.md'));
      // A binary .md is skipped on purpose (not a failure); a Word file that is no zip fails alone.
      await writeFile(join(notes, 'broken.docx'), 'not a zip');
      const second = await cli(['sync'], { tty: true });
      expect(second.code).toBe(1);
      expect(second.stdout).toContain('\r\x1b[2K[');
      expect(second.stdout.slice(second.stdout.lastIndexOf('\r\x1b[2K') + 5)).toMatch(
        /^notes: partial in \d+\.\d s\n {2}seen 3 · added 0 · updated 1 · unchanged 1 · deleted 1 · failed 1 · chunks written 1\n {2}✗ broken\.docx: broken\.docx is not a readable Word document: [^\n]+\n$/,
      );
      await rm(join(notes, 'broken.docx'));
    });

    it('status shows every connection with counts, as text and as JSON', async () => {
      const snapshot = json<StatusSnapshot>((await cli(['status', '--json'])).stdout).value;
      expect(snapshot.connections.map((c) => [c.name, c.mode, c.documentCount, c.syncError])).toEqual([
        [
          'notes',
          'rag',
          2,
          expect.stringMatching(
            /^1 document failed \(first: "broken": broken\.docx is not a readable Word document: .+\)$/,
          ),
        ],
        ['Team Wiki', 'direct', 0, null],
      ]);
      const text = (await cli(['status'])).stdout;
      expect(text).toContain('Data directory: :memory:');
      // The default: no semantic model, so no vectors, and the status says how to get search by meaning.
      expect(snapshot.reindex).toMatchObject({ activeSpace: '', pendingSpace: null, total: 0 });
      expect(text).toContain('\nIndex: keyword search; add a semantic model for meaning-based search\n');
      expect(text).toMatch(
        /\nNAME {7}PLATFORM {2}MODE {4}STATUS {2}DOCS {2}CHUNKS {2}LAST SYNC {9}NEXT SYNC\nnotes {6}folder {4}rag {5}synced {2}2 {5}2 {7}\d{4}-/,
      );
      // The soonest scheduled sync, relative and absolute (the next one is 24 h after the last).
      expect(text).toMatch(
        /\nNext sync: notes in 2[34] h \(\d{4}-\d\d-\d\d \d\d:\d\d\), while the app or `cairn serve` runs\.\n/,
      );
    });

    it('search prints documents with knowledge base, link and per-channel ranks, and filters by connection', async () => {
      const response = json<SearchResponse>(
        (await cli(['search', 'installer', '--k', '5', '--connection', 'notes', '--json'])).stdout,
      ).value;
      const hits = response.hits;
      expect(response.documents.map((document) => document.best)).toEqual(
        hits.filter((hit, index) => hits.findIndex((other) => other.documentId === hit.documentId) === index),
      );
      // The keyword channel ranks the only document that says "installer" first (no vectors by default).
      expect(hits.map((hit) => [hit.title, hit.knowledgeBase, hit.url, hit.ranks])[0]).toEqual([
        'FAQ',
        'notes',
        // A folder hit links to its section (the heading's GitHub-style anchor).
        `${join(notes, 'faq.md')}#faq`,
        { keyword: 1 },
      ]);
      const text = await cli(['search', '发票']);
      // The freshness line's ages depend on how long the suite took to get here ("just now", "2 minutes ago").
      expect(
        text.stdout
          .replace(/in \d+ ms/, 'in N ms')
          .replace(/^ {3}edited [^·\n]+ · synced [^·\n]+$/m, '   edited <age> · synced <age>'),
      ).toBe(
        `1. 报销流程 — notes (folder)  [keyword #1]\n   报销流程\n   ${join(notes, '中文', '报销.md')}#报销流程\n   edited <age> · synced <age>\n   # 报销流程 报销需要发票。\n\nwarning: Team Wiki: Cannot reach 127.0.0.1:9 (fetch failed).\n1 document in N ms\n`,
      );
      expect((await cli(['search', 'installer', '--connection', 'nobody'])).code).toBe(1);
    });

    it('mode switches a connection; a direct connection has nothing to sync', async () => {
      expect((await cli(['mode', 'notes', 'direct'])).stdout).toBe(
        '"notes" is now in direct mode: searched live; its index stays on disk until you remove the connection.\n',
      );
      expect(await cli(['sync', 'notes'])).toEqual({
        code: 1,
        stdout: '',
        stderr:
          'cairn: "notes" is in direct mode: it is searched live and has nothing to sync. (UNSUPPORTED)\n',
      });
      expect(await cli(['sync', '--json'])).toEqual({
        code: 0,
        stdout:
          JSON.stringify({ ok: true, value: { runs: [], notStarted: [], semantic: null } }, null, 2) + '\n',
        stderr: '',
      });
      expect((await cli(['mode', 'notes', 'rag'])).code).toBe(0);
    });

    it('sync of all connections names the ones that could not start and fails, instead of claiming none is in RAG mode', async () => {
      const added = await cairn.api.connections.add({
        platform: 'dingtalk',
        name: 'DT',
        mode: 'rag',
        config: { appKey: 'key', operatorId: 'union' },
        secrets: { appSecret: 'dt-secret-value' },
      });
      if (!added.ok) throw new Error(added.error.message);
      try {
        await cli(['mode', 'notes', 'direct']);
        const text = await cli(['sync']);
        expect(text.code).toBe(1);
        expect(text.stdout).toMatch(
          /^DT: not started: "DT": full text unavailable: [^\n]*[^.]\. Switch it to direct search\. \(UNSUPPORTED\)\n$/,
        );
        const asJson = await cli(['sync', '--json']);
        expect({
          code: asJson.code,
          value: json<{ runs: SyncRunReport[]; notStarted: { name: string; error: { code: string } }[] }>(
            asJson.stdout,
          ).value,
        }).toMatchObject({
          code: 1,
          value: { runs: [], notStarted: [{ name: 'DT', error: { code: 'UNSUPPORTED' } }] },
        });
      } finally {
        await cli(['mode', 'notes', 'rag']);
        await cairn.api.connections.remove({ id: added.value.id });
      }
    });

    it('sync exits 130 when interrupted', async () => {
      const controller = new AbortController();
      controller.abort();
      const run = await cli(['sync', 'notes', '--json'], { signal: controller.signal });
      expect({
        code: run.code,
        status: json<{ runs: SyncRunReport[] }>(run.stdout).value.runs[0]?.status,
      }).toEqual({ code: 130, status: 'cancelled' });
    });

    it('edit changes settings and credentials in place, keeping secrets out of the output', async () => {
      const wiki = json<StatusSnapshot>((await cli(['status', '--json'])).stdout).value.connections.find(
        (c) => c.name === 'Team Wiki',
      )!;
      const edited = await cli([
        'edit',
        'team wiki',
        '--base-url',
        'http://127.0.0.1:8/api/v2',
        '--token',
        'rotated-yuque-token-2',
      ]);
      const fromEnv = await cli(
        ['edit', 'Team Wiki', '--name', '团队 Wiki', '--secrets-from-env', '--json'],
        {
          env: { CAIRN_TOKEN: 'env-yuque-token-3' },
        },
      );
      const refusals = await Promise.all([
        cli(['edit', '团队 Wiki']),
        cli(['edit', 'notes', '--token', 'x']),
        cli(['edit', '团队 Wiki', '--token', '']),
      ]);
      const bad = await cli(['edit', '团队 Wiki', '--base-url', 'not a url']);
      expect({
        edited,
        fromEnv: [
          fromEnv.code,
          json<ConnectionView>(fromEnv.stdout).value.name,
          fromEnv.stdout.includes('env-yuque-token-3'),
        ],
        refusals: refusals.map((run) => [run.code, run.stderr.split('\n')[0]]),
        bad,
        stored: await cairn.secrets.get(`connection:${wiki.id}`),
      }).toEqual({
        edited: {
          code: 0,
          stdout: `Updated "Team Wiki" (id ${wiki.id}): baseUrl, token. Its index is kept.\n`,
          stderr: '',
        },
        fromEnv: [0, '团队 Wiki', false],
        refusals: [
          [
            2,
            'cairn edit: Nothing to change: give --name or one of --base-url, --token (or --secrets-from-env).',
          ],
          [2, 'cairn edit: --token is not an option for folder.'],
          [2, 'cairn edit: --token is empty: leave it out to keep the stored value.'],
        ],
        bad: {
          code: 2,
          stdout: '',
          stderr: 'cairn: Invalid Yuque connection: baseUrl must be an http(s) URL. (INVALID_ARGUMENT)\n',
        },
        stored: { token: 'env-yuque-token-3' },
      });
      await cli(['edit', '团队 Wiki', '--name', 'Team Wiki']);
    });

    it('edit --clear removes a stored optional secret, and refuses a required one or a non-secret; scopes are checked', async () => {
      const added = await cairn.api.connections.add({
        platform: 'lark',
        name: 'Lark edit',
        mode: 'direct',
        config: { appId: 'cli_x', baseUrl: 'http://127.0.0.1:9' },
        secrets: { appSecret: 'lark-secret-value', userRefreshToken: 'lark-refresh-value' },
      });
      if (!added.ok) throw new Error(added.error.message);
      try {
        const cleared = await cli(['edit', 'Lark edit', '--clear', 'user-refresh-token']);
        const refusals = await Promise.all([
          cli(['edit', 'Lark edit', '--clear=--app-secret']),
          cli(['edit', 'Lark edit', '--clear', 'app-id']),
          cli(['edit', 'Lark edit', '--clear', 'token']),
          cli(['edit', 'Lark edit', '--oauth-scopes', 'wiki:wiki:readonly,search:docs:read']),
        ]);
        expect({
          cleared,
          stored: await cairn.secrets.get(`connection:${added.value.id}`),
          refusals: refusals.map((run) => [run.code, run.stderr.split('\n')[0]]),
        }).toEqual({
          cleared: {
            code: 0,
            stdout: `Updated "Lark edit" (id ${added.value.id}): userRefreshToken removed. Its index is kept.\n`,
            stderr: '',
          },
          stored: { appSecret: 'lark-secret-value' },
          refusals: [
            [
              2,
              'cairn: Invalid Lark connection: App secret (--app-secret) is required and cannot be removed. (INVALID_ARGUMENT)',
            ],
            [2, 'cairn edit: --app-id is not a secret: clear it with --app-id "" instead of --clear.'],
            [2, 'cairn edit: --clear takes a field flag of lark (e.g. --app-secret), not "token".'],
            [
              2,
              'cairn: Invalid Lark connection: oauthScopes: "wiki:wiki:readonly,search:docs:read" is not a scope name (separate scopes with spaces, e.g. "search:docs:read wiki:wiki:readonly"). (INVALID_ARGUMENT)',
            ],
          ],
        });
      } finally {
        await cairn.api.connections.remove({ id: added.value.id });
      }
    });

    it('edit turns an on/off option on and off with true/false, and the limitation follows', async () => {
      const added = await cairn.api.connections.add({
        platform: 'dingtalk',
        name: 'DT edit',
        mode: 'direct',
        config: { appKey: 'key', operatorId: 'union' },
        secrets: { appSecret: 'dt-secret-value' },
      });
      if (!added.ok) throw new Error(added.error.message);
      try {
        const on = await cli(['edit', 'DT edit', '--stream-events', 'true', '--json']);
        const off = await cli(['edit', 'DT edit', '--stream-events', 'false', '--json']);
        const bad = await cli(['edit', 'DT edit', '--stream-events', 'yes']);
        const view = (run: { stdout: string }) => json<ConnectionView>(run.stdout).value;
        expect({
          before: added.value.limitationCode,
          on: [on.code, view(on).config['streamEvents'], view(on).limitationCode],
          off: [off.code, view(off).config['streamEvents'], view(off).limitationCode],
          bad: [bad.code, bad.stderr],
        }).toEqual({
          before: 'dingtalk.blocks',
          on: [0, true, 'dingtalk.blocks-stream'],
          off: [0, false, 'dingtalk.blocks'],
          bad: [
            2,
            'cairn: Invalid DingTalk connection: streamEvents must be true or false. (INVALID_ARGUMENT)\n',
          ],
        });
      } finally {
        await cairn.api.connections.remove({ id: added.value.id });
      }
    });

    it('remove deletes the connection and its index', async () => {
      expect(await cli(['remove', 'notes'])).toEqual({
        code: 0,
        stdout: 'Removed "notes" with its 2 documents and 2 chunks.\n',
        stderr: '',
      });
      expect((await cli(['remove', 'notes'])).code).toBe(1);
      const left = await cairn.api.search.query({ query: 'installer licence 报销' });
      expect({
        docs: left.ok ? left.value.hits.filter((hit) => hit.source === 'index').length : -1,
        names:
          (await cairn.api.connections.list()).ok &&
          json<StatusSnapshot>((await cli(['status', '--json'])).stdout).value.connections.map((c) => c.name),
      }).toEqual({
        docs: 0,
        names: ['Team Wiki'],
      });
    });
  },
);
