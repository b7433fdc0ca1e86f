import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCairn, type CairnInternals } from '../core/app/create-cairn';
import { createLogger, silentLogger } from '../core/logging/logger';
import { startFeishuFake } from '../testing/fakes/feishu-fake';
import { createApiDispatcher, resolveChannel, withExternalOpener, withSignInOpener } from './api-dispatcher';

// One in-memory core for the file: opening PGlite costs seconds.
let cairn: CairnInternals;

beforeAll(async () => {
  cairn = await createCairn({ scheduler: false, env: {}, logger: silentLogger() });
});

afterAll(async () => {
  await cairn.dispose();
});

describe('resolveChannel', () => {
  it('resolves contract methods only, never prototype members', () => {
    expect(
      [
        'sync.start',
        'app.status',
        '__proto__.x',
        'app.constructor',
        'app.toString',
        'sync',
        '.start',
        'nope.start',
      ].map(resolveChannel),
    ).toEqual([
      { domain: 'sync', method: 'start' },
      { domain: 'app', method: 'status' },
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});

describe('createApiDispatcher', () => {
  it('validates arguments before they reach core and returns errors as data', async () => {
    const dispatch = createApiDispatcher(cairn.api);
    const results = await Promise.all([
      dispatch('sync.start', { connectionId: 5 }),
      dispatch('sync.start', { connectionId: 'c1', extra: true }),
      dispatch('connections.add', { platform: 'gitlab', name: 'x', mode: 'rag', config: {}, secrets: {} }),
      dispatch('app.status', { unexpected: 1 }),
      dispatch('search.query', { query: 'x'.repeat(20_001) }),
      dispatch('documents.get', { documentId: 0 }),
      dispatch('documents.get', { documentId: '7' }),
      dispatch('sync.start', { connectionId: 'missing' }),
      dispatch('nope.nothing', {}),
      dispatch('documents.get', { documentId: 424242 }),
    ]);
    expect(results.map((result) => (result.ok ? 'ok' : result.error.code))).toEqual([
      'INVALID_ARGUMENT',
      'INVALID_ARGUMENT',
      'INVALID_ARGUMENT',
      'INVALID_ARGUMENT',
      'INVALID_ARGUMENT',
      'INVALID_ARGUMENT',
      'INVALID_ARGUMENT',
      'NOT_FOUND',
      'NOT_FOUND',
      'NOT_FOUND',
    ]);
    const ok = await dispatch('connections.add', {
      platform: 'folder',
      name: '笔记',
      mode: 'rag',
      config: { path: '/home/me/笔记' },
      secrets: {},
    });
    expect(ok.ok && (ok.value as { name: string }).name).toBe('笔记');
  });

  it('validates connection edits at the boundary and lets a good one through to core', async () => {
    const dispatch = createApiDispatcher(cairn.api);
    const added = await dispatch('connections.add', {
      platform: 'folder',
      name: 'Edit me',
      mode: 'rag',
      config: { path: '/home/me/edit' },
      secrets: {},
    });
    const id = added.ok ? (added.value as { id: string }).id : '';
    const results = await Promise.all([
      dispatch('connections.update', { id, name: '' }),
      dispatch('connections.update', { id, secrets: { token: 'x'.repeat(8_001) } }),
      dispatch('connections.update', { id, mode: 'direct' }),
      dispatch('connections.testUpdate', { name: 'no id' }),
      dispatch('connections.update', { id: 'missing', name: 'x' }),
    ]);
    expect(results.map((result) => (result.ok ? 'ok' : result.error.code))).toEqual([
      'INVALID_ARGUMENT',
      'INVALID_ARGUMENT',
      'INVALID_ARGUMENT',
      'INVALID_ARGUMENT',
      'NOT_FOUND',
    ]);
    const moved = await dispatch('connections.update', {
      id,
      name: '移动后',
      config: { path: '/home/me/moved' },
    });
    expect(moved.ok && (moved.value as { name: string; config: unknown })).toEqual(
      expect.objectContaining({ name: '移动后', config: { path: '/home/me/moved' } }),
    );
  });

  it('turns a throwing implementation into INTERNAL data and logs the stack', async () => {
    const lines: string[] = [];
    const broken = {
      ...cairn.api,
      settings: {
        ...cairn.api.settings,
        get: async () => {
          throw new Error('disk on fire');
        },
      },
    };
    const result = await createApiDispatcher(broken, createLogger({ sink: (line) => lines.push(line) }))(
      'settings.get',
      undefined,
    );
    expect(result).toEqual({ ok: false, error: { code: 'INTERNAL', message: 'disk on fire' } });
    expect(lines.join('\n')).toContain('settings.get threw');
  });
});

describe('withExternalOpener', () => {
  // A connected folder on disk: a file, a subfolder reached through a link inside it, and links
  // leading out of it (the OS opener would follow them).
  let base: string;
  let notes: string;
  beforeAll(async () => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-open-')));
    notes = join(base, 'notes');
    mkdirSync(join(notes, 'sub'), { recursive: true });
    mkdirSync(join(base, 'outside'));
    writeFileSync(join(notes, 'a.md'), '# A');
    writeFileSync(join(notes, 'b c.md'), '# B');
    writeFileSync(join(notes, 'sub', 'd.md'), '# D');
    writeFileSync(join(base, 'outside', 'shadow'), 'secret');
    symlinkSync(join(notes, 'sub'), join(notes, 'link'));
    symlinkSync(join(base, 'outside', 'shadow'), join(notes, 'shadow.md'));
    symlinkSync(join(base, 'outside'), join(notes, 'out'));
    const added = await cairn.api.connections.add({
      platform: 'folder',
      name: 'Notes',
      mode: 'rag',
      config: { path: notes },
      secrets: {},
    });
    expect(added.ok).toBe(true);
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('opens only what core allowed', async () => {
    const opened: string[] = [];
    const api = withExternalOpener(cairn.api, async (url) => void opened.push(url));
    const results = await Promise.all(
      ['https://www.yuque.com/a', 'javascript:alert(1)', '/etc/passwd', join(notes, 'a.md')].map((url) =>
        api.app.openExternal({ url }),
      ),
    );
    expect(results.map((result) => (result.ok ? 'ok' : result.error.code))).toEqual([
      'ok',
      'INVALID_ARGUMENT',
      'PERMISSION_DENIED',
      'ok',
    ]);
    expect(opened).toEqual(['https://www.yuque.com/a', join(notes, 'a.md')]);
  });

  it('hands the shell the real path core checked, not the raw string it was given', async () => {
    const opened: string[] = [];
    const api = withExternalOpener(cairn.api, async (url) => void opened.push(url));
    const links = [
      // `link/..` by name is notes/a.md, but the OS follows `link` first: notes/sub/.. is notes.
      join(notes, 'link/../a.md'),
      `file://${notes}/b%20c.md`,
      join(notes, 'link', 'd.md'),
      ' https://www.yuque.com/a b\n',
    ];
    for (const url of links) expect((await api.app.openExternal({ url })).ok).toBe(true);
    expect(opened).toEqual([
      join(notes, 'a.md'),
      join(notes, 'b c.md'),
      join(notes, 'sub', 'd.md'),
      'https://www.yuque.com/a%20b',
    ]);
  });

  it('shows a folder file in its folder when asked to reveal it, and nothing else', async () => {
    const opened: { target: string; how?: { reveal?: boolean } }[] = [];
    const api = withExternalOpener(
      cairn.api,
      async (target, how) => void opened.push({ target, ...(how ? { how } : {}) }),
    );
    const results = await Promise.all(
      [join(notes, 'link', 'd.md'), 'https://www.yuque.com/a', join(notes, 'shadow.md')].map((url) =>
        api.app.openExternal({ url, reveal: true }),
      ),
    );
    expect(results.map((result) => (result.ok ? 'ok' : result.error.code))).toEqual([
      'ok',
      'INVALID_ARGUMENT',
      'PERMISSION_DENIED',
    ]);
    expect(opened).toEqual([{ target: join(notes, 'sub', 'd.md'), how: { reveal: true } }]);
  });

  it('refuses a link inside the folder that leads outside it, and opens nothing', async () => {
    const opened: string[] = [];
    const api = withExternalOpener(cairn.api, async (url) => void opened.push(url));
    const results = await Promise.all(
      [join(notes, 'shadow.md'), join(notes, 'out', 'shadow'), join(notes, 'gone.md')].map((url) =>
        api.app.openExternal({ url }),
      ),
    );
    expect(results.map((result) => (result.ok ? 'ok' : result.error.code))).toEqual([
      'PERMISSION_DENIED',
      'PERMISSION_DENIED',
      'NOT_FOUND',
    ]);
    expect(opened).toEqual([]);
  });
});

describe('withSignInOpener', () => {
  it('opens the sign-in page core started and says so; failures stay data', async () => {
    const fake = await startFeishuFake({ documents: 1 });
    try {
      const added = await cairn.api.connections.add({
        platform: 'feishu',
        name: 'Feishu',
        mode: 'direct',
        config: { baseUrl: fake.baseUrl, appId: fake.credentials.appId, redirectPort: 0 },
        secrets: { appSecret: fake.credentials.appSecret },
      });
      if (!added.ok) throw new Error(added.error.message);
      const opened: string[] = [];
      const dispatch = createApiDispatcher(withSignInOpener(cairn.api, async (url) => void opened.push(url)));
      const started = await dispatch('connections.authorize', { id: added.value.id });
      const refused = await Promise.all([
        dispatch('connections.authorize', { id: 7 }),
        dispatch('connections.authorize', { id: 'missing' }),
        dispatch('connections.cancelAuthorize', {}),
      ]);
      expect(started.ok && started.value).toEqual({ authorizeUrl: opened[0], opened: true });
      expect(opened[0]?.startsWith(`${fake.baseUrl}/open-apis/authen/v1/authorize?`)).toBe(true);
      expect(refused.map((result) => (result.ok ? 'ok' : result.error.code))).toEqual([
        'INVALID_ARGUMENT',
        'NOT_FOUND',
        'INVALID_ARGUMENT',
      ]);
      expect((await dispatch('connections.cancelAuthorize', { id: added.value.id })).ok).toBe(true);
      const signOut = await Promise.all([
        dispatch('connections.signOut', { id: added.value.id }),
        dispatch('connections.signOut', { id: added.value.id, extra: 1 }),
      ]);
      expect(
        signOut.map((result) =>
          result.ok ? (result.value as { userAuth?: string }).userAuth : result.error.code,
        ),
      ).toEqual(['none', 'INVALID_ARGUMENT']);
      const update = await dispatch('connections.update', {
        id: added.value.id,
        clearSecrets: 'userRefreshToken',
      });
      expect(update.ok ? 'ok' : update.error.code).toBe('INVALID_ARGUMENT');
    } finally {
      await fake.close();
    }
  });
});
