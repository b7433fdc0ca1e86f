/**
 * `connections.update` through the real composition root with the Yuque fake: a revoked token is
 * replaced without losing the index, secrets stay in the secret store, bad edits change nothing,
 * an edit waits for no sync, and a folder moved elsewhere is reconciled by the next sync.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionView } from '@shared/models';
import { startYuqueFake, type YuqueFake } from '../../testing/fakes/yuque-fake';
import { defaultConnectorFactories } from '../connectors/registry';
import { YuqueConnector } from '../connectors/yuque/yuque-connector';
import { searchHits, syncToEnd, unwrap } from '../../testing/integration-kit';
import { createLogger, SecretRedactor } from '../logging/logger';
import { createCairn, type CairnInternals } from '../app/create-cairn';

const UNTHROTTLED = { intervalMs: 1000, intervalCap: 1000 };

let cairn: CairnInternals;
let yuque: YuqueFake;
let otherYuque: YuqueFake;
let scratch: string;
const logLines: string[] = [];
const answers: unknown[] = [];

/** Every API answer is kept, to check afterwards that no secret was ever in one. */
function kept<T>(value: T): T {
  answers.push(value);
  return value;
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'cairn-update-'));
  [yuque, otherYuque] = await Promise.all([
    startYuqueFake({ documents: 8, specialDocuments: false }),
    startYuqueFake({
      documents: 4,
      seed: 2,
      specialDocuments: false,
      token: 'yuque-other-account-token-5e6f7a8b',
    }),
  ]);
  const redactor = new SecretRedactor();
  cairn = await createCairn({
    env: {},
    scheduler: false,
    redactor,
    logger: createLogger({ redactor, level: 'debug', sink: (line) => void logLines.push(line) }),
    factories: {
      ...defaultConnectorFactories(),
      yuque: (init) =>
        new YuqueConnector(init, { http: { rate: UNTHROTTLED, backoffBaseMs: 5, backoffMaxMs: 20 } }),
    },
  });
});

afterAll(async () => {
  await cairn?.dispose();
  await Promise.all([yuque?.close(), otherYuque?.close()]);
  await rm(scratch, { recursive: true, force: true });
});

async function view(id: string): Promise<ConnectionView> {
  const found = kept(unwrap(await cairn.api.connections.list())).find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no connection ${id}`);
  return found;
}

describe('connections.update', () => {
  let wiki: ConnectionView;

  it('replaces a revoked token without losing the index; the failure clears only once a test succeeds', async () => {
    wiki = kept(
      unwrap(
        await cairn.api.connections.add({
          platform: 'yuque',
          name: 'Wiki',
          mode: 'rag',
          config: { baseUrl: yuque.baseUrl },
          secrets: { ...yuque.credentials },
        }),
      ),
    );
    expect((await syncToEnd(cairn, wiki.id)).status).toBe('succeeded');
    const indexed = await view(wiki.id);
    const query = yuque.control.store.list()[0]!.title;
    const before = (await searchHits(cairn, query)).map((hit) => hit.key);

    yuque.control.expireToken();
    expect((await syncToEnd(cairn, wiki.id)).error?.code).toBe('AUTH_INVALID');
    const newToken = yuque.control.issueToken();
    const tested = kept(
      await cairn.api.connections.testUpdate({ id: wiki.id, secrets: { token: newToken } }),
    );
    const afterTestUpdate = await view(wiki.id);
    const updated = kept(
      await cairn.api.connections.update({
        id: wiki.id,
        config: { baseUrl: yuque.baseUrl },
        secrets: { token: newToken },
      }),
    );
    const afterUpdate = await view(wiki.id);
    const hitsAfterUpdate = (await searchHits(cairn, query)).map((hit) => hit.key);
    const test = kept(await cairn.api.connections.test({ id: wiki.id }));
    const afterTest = await view(wiki.id);
    const run = kept(await syncToEnd(cairn, wiki.id));

    expect({
      tested: tested.ok,
      // Not cleared by a test of unsaved values, nor by saving them: only by a test of the saved ones.
      statusAfterTestUpdate: [afterTestUpdate.syncStatus, afterTestUpdate.syncErrorCode],
      updated: updated.ok,
      afterUpdate: [
        afterUpdate.syncStatus,
        afterUpdate.documentCount,
        afterUpdate.chunkCount,
        afterUpdate.secretFields,
      ],
      sameHits: hitsAfterUpdate,
      test: test.ok,
      afterTest: [afterTest.syncStatus, afterTest.syncError, afterTest.syncErrorCode],
      run: [run.status, run.counters.unchanged, run.counters.added, run.counters.deleted],
      stored: await cairn.secrets.get(`connection:${wiki.id}`),
    }).toEqual({
      tested: true,
      // The code goes with the sentence, so the card can say it in the UI language.
      statusAfterTestUpdate: ['failed', 'AUTH_INVALID'],
      updated: true,
      afterUpdate: ['failed', indexed.documentCount, indexed.chunkCount, ['token']],
      sameHits: before,
      test: true,
      afterTest: ['synced', null, null],
      run: ['succeeded', indexed.documentCount, 0, 0],
      stored: { token: newToken },
    });
    expect(before.length).toBeGreaterThan(0);
  });

  it('keeps a stored secret left empty, and tests edited settings with it without sending it back', async () => {
    const stored = await cairn.secrets.get(`connection:${wiki.id}`);
    // The second fake accepts another token: the edited base URL with the stored token is refused there...
    const elsewhere = kept(
      await cairn.api.connections.testUpdate({
        id: wiki.id,
        config: { baseUrl: otherYuque.baseUrl },
        secrets: { token: '' },
      }),
    );
    // ...and works with the token given in the form.
    const withToken = kept(
      await cairn.api.connections.testUpdate({
        id: wiki.id,
        config: { baseUrl: otherYuque.baseUrl },
        secrets: { token: otherYuque.credentials.token },
      }),
    );
    const renamed = kept(
      unwrap(
        await cairn.api.connections.update({ id: wiki.id, name: '  团队 Wiki ', secrets: { token: '' } }),
      ),
    );
    expect({
      elsewhere: elsewhere.ok ? 'ok' : elsewhere.error.code,
      withToken: withToken.ok,
      renamed: [renamed.name, renamed.config, renamed.secretFields],
      stored: await cairn.secrets.get(`connection:${wiki.id}`),
    }).toEqual({
      elsewhere: 'AUTH_INVALID',
      withToken: true,
      renamed: ['团队 Wiki', { baseUrl: yuque.baseUrl }, ['token']],
      stored,
    });
  });

  it('rejects bad edits with one clear message and changes nothing', async () => {
    const before = await view(wiki.id);
    const stored = await cairn.secrets.get(`connection:${wiki.id}`);
    const attempts = await Promise.all([
      cairn.api.connections.update({
        id: wiki.id,
        config: { token: 'in-the-wrong-place-123', baseUrl: 'ftp://x' },
      }),
      cairn.api.connections.update({ id: wiki.id, config: { appId: 'x' }, secrets: { colour: 'blue' } }),
      cairn.api.connections.update({ id: wiki.id, name: ' ' }),
      cairn.api.connections.update({ id: 'nope-000000', name: 'X' }),
      cairn.api.connections.update({ id: wiki.id, config: { baseUrl: null } } as never),
    ]);
    kept(attempts);
    expect(
      attempts.map((result) => (result.ok ? 'ok' : `${result.error.code}: ${result.error.message}`)),
    ).toEqual([
      'INVALID_ARGUMENT: Invalid Yuque connection: token is a secret and belongs in secrets, not config; baseUrl must be an http(s) URL.',
      'INVALID_ARGUMENT: Invalid Yuque connection: unknown field "appId"; unknown secret field "colour".',
      'INVALID_ARGUMENT: Invalid connection update: name: A connection needs a name.',
      'NOT_FOUND: No connection with id "nope-000000".',
      'INVALID_ARGUMENT: Invalid connection update: config.baseUrl: Invalid input.',
    ]);
    expect({ after: await view(wiki.id), stored: await cairn.secrets.get(`connection:${wiki.id}`) }).toEqual({
      after: before,
      stored,
    });
  });

  it('refuses to change settings while a sync of the connection runs, but renames', async () => {
    yuque.control.inject({ kind: 'slow', delayMs: 1500 }, { path: '/docs', times: 1 });
    unwrap(await cairn.api.sync.start({ connectionId: wiki.id }));
    const edit = kept(
      await cairn.api.connections.update({ id: wiki.id, config: { baseUrl: otherYuque.baseUrl } }),
    );
    const rename = kept(await cairn.api.connections.update({ id: wiki.id, name: 'Wiki' }));
    await cairn.whenIdle();
    expect({ edit, rename: rename.ok, baseUrl: (await view(wiki.id)).config['baseUrl'] }).toEqual({
      edit: {
        ok: false,
        error: {
          code: 'ALREADY_SYNCING',
          message: '"团队 Wiki" is syncing: stop the sync, then save the changes.',
        },
      },
      rename: true,
      baseUrl: yuque.baseUrl,
    });
  });

  it('moves a folder connection: the next sync indexes the new folder and drops what is gone', async () => {
    const [first, second] = [join(scratch, 'first'), join(scratch, 'second')];
    await Promise.all([
      rm(first, { force: true, recursive: true }),
      rm(second, { force: true, recursive: true }),
    ]);
    const { mkdir } = await import('node:fs/promises');
    await Promise.all([mkdir(first), mkdir(second)]);
    await writeFile(join(first, 'shared.md'), '# 共享\n\n同一份笔记。');
    await writeFile(join(first, 'old.md'), '# Old\n\nzebracrossing only here.');
    await writeFile(join(second, 'shared.md'), '# 共享\n\n同一份笔记。');
    await writeFile(join(second, 'new.md'), '# New\n\nquokkaparade only here.');
    const notes = kept(
      unwrap(
        await cairn.api.connections.add({
          platform: 'folder',
          name: 'Notes',
          mode: 'rag',
          config: { path: first },
          secrets: {},
        }),
      ),
    );
    await syncToEnd(cairn, notes.id);
    const moved = kept(
      unwrap(await cairn.api.connections.update({ id: notes.id, config: { path: second } })),
    );
    const run = await syncToEnd(cairn, notes.id);
    expect({
      path: moved.config['path'],
      counters: [run.status, run.counters.added, run.counters.unchanged, run.counters.deleted],
      old: (await searchHits(cairn, 'zebracrossing')).length,
      fresh: (await searchHits(cairn, 'quokkaparade')).map((hit) => hit.title),
    }).toEqual({ path: second, counters: ['succeeded', 1, 1, 1], old: 0, fresh: ['New'] });
  });

  it('never puts a secret in an answer or a log line', () => {
    const secrets = [...yuque.control.issuedTokens(), otherYuque.credentials.token];
    const text = JSON.stringify(answers) + logLines.join('\n');
    expect(secrets.filter((secret) => text.includes(secret))).toEqual([]);
  });
});
