import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionView, NewConnection } from '@shared/models';
import type { Connector } from '../connectors/connector';
import { defaultConnectorFactories } from '../connectors/registry';
import { openDatabase, type Db } from '../db/database';
import { toResult } from '../errors';
import { createLogger, SecretRedactor } from '../logging/logger';
import { MemorySecretStore } from '../secrets/secret-store';
import { ConnectionRepository } from './connection-repository';
import { ConnectionConnectors } from './connection-connectors';
import { ConnectionSecrets, secretFieldNames } from './connection-secrets';
import { ConnectionService } from './connection-service';
import { ConnectionEventBus } from '../events/connection-events';
import { EventBus } from '../events/event-bus';

let db: Db;
let folder: string;
let secrets: MemorySecretStore;
let service: ConnectionService;
let impatient: ConnectionService;
let connectors: ConnectionConnectors;
let changes: ConnectionView[][];
let removedFirst: string[];
let logLines: string[];
let rotate: ((values: Record<string, string>) => Promise<void>) | undefined;

// A Yuque stand-in that checks its token and can hang, so tests exercise secrets and timeouts.
function fakeYuque(init: {
  secrets: Record<string, string>;
  saveSecrets?: (s: Record<string, string>) => Promise<void>;
  logger: { info(m: string, f?: Record<string, unknown>): void };
}): Connector {
  rotate = init.saveSecrets;
  return {
    platform: 'yuque',
    capabilities: { fullText: true, search: true, experimental: false, limitation: null },
    async validate(signal) {
      init.logger.info('validating', { token: init.secrets['token'] });
      if (init.secrets['token'] === 'hang')
        await new Promise((_, reject) =>
          signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        );
      return `token ok (${init.secrets['token']?.length} chars)`;
    },
    async *list() {},
    async fetch() {
      return { markdown: '' };
    },
    async search() {
      return [];
    },
  };
}

beforeAll(async () => {
  db = await openDatabase();
  folder = await mkdtemp(join(tmpdir(), 'cairn-conn-'));
  await writeFile(join(folder, 'a.md'), '# A');
  secrets = new MemorySecretStore();
  changes = [];
  removedFirst = [];
  logLines = [];
  const events = new EventBus();
  events.on('connections.changed', (list) => changes.push(list));
  const redactor = new SecretRedactor();
  const logger = createLogger({ sink: (line) => logLines.push(line), level: 'debug', redactor });
  const repository = new ConnectionRepository(db, {
    secretFieldsOf: (ref) => secretFieldNames(secrets, ref),
  });
  const lifecycle = new ConnectionEventBus();
  lifecycle.on('removing', ({ connectionId }) => void removedFirst.push(connectionId));
  const connectionSecrets = new ConnectionSecrets(secrets, repository, logger, redactor);
  connectors = new ConnectionConnectors({
    repository,
    secrets: connectionSecrets,
    lifecycle,
    logger,
    factories: { ...defaultConnectorFactories(), yuque: fakeYuque },
  });
  const deps = { repository, secrets: connectionSecrets, connectors, lifecycle, logger, events };
  service = new ConnectionService(deps);
  // Only the hanging connector meets this budget: a real Test (the folder's) gets the default,
  // which a loaded machine needs (200 ms was missed at load 20).
  impatient = new ConnectionService({ ...deps, testTimeoutMs: 200 });
});

afterAll(async () => {
  await db.close();
  await rm(folder, { recursive: true, force: true });
});

const yuque = (token: string, name = 'Wiki'): NewConnection => ({
  platform: 'yuque',
  name,
  mode: 'rag',
  config: { baseUrl: 'http://127.0.0.1:1/api/v2' },
  secrets: { token },
});

describe('ConnectionService', () => {
  it('adds connections, keeping secrets only in the secret store, and announces each change', async () => {
    const notes = await service.add({
      platform: 'folder',
      name: 'Notes',
      mode: 'rag',
      config: { path: folder },
      secrets: {},
    });
    const wiki = await service.add(yuque('tok-secret-value-1'));
    expect([notes.secretFields, wiki.secretFields]).toEqual([[], ['token']]);
    expect(await secrets.get(`connection:${wiki.id}`)).toEqual({ token: 'tok-secret-value-1' });
    const rows = await db.query('SELECT * FROM connections');
    expect(JSON.stringify(rows.rows)).not.toContain('tok-secret-value-1');
    expect(changes.map((list) => list.map((c) => c.name))).toEqual([['Notes'], ['Notes', 'Wiki']]);
  });

  it('rejects incomplete or misplaced fields with one clear message', async () => {
    expect(
      await toResult(() =>
        service.add({
          platform: 'dingtalk',
          name: 'D',
          mode: 'direct',
          config: { appSecret: 'x', baseUrl: 'ftp://nope' },
          secrets: { colour: 'blue' },
        }),
      ),
    ).toEqual({
      ok: false,
      error: {
        code: 'INVALID_ARGUMENT',
        message:
          'Invalid DingTalk connection: App key (--app-key) is required; appSecret is a secret and belongs in secrets, not config; App secret (--app-secret) is required; one of userId (--user-id) or operatorId (--operator-id) is required; unknown secret field "colour"; baseUrl must be an http(s) URL.',
      },
    });
    expect(
      (
        await toResult(() =>
          service.add({
            platform: 'folder',
            name: 'Rel',
            mode: 'rag',
            config: { path: 'notes' },
            secrets: {},
          }),
        )
      ).ok,
    ).toBe(false);
    expect(
      (
        await toResult(() =>
          service.add({
            platform: 'nope',
            name: 'X',
            mode: 'rag',
            config: {},
            secrets: {},
          } as unknown as NewConnection),
        )
      ).ok,
    ).toBe(false);
  });

  it('tests saved and unsaved connections, with a timeout and no secret in the logs', async () => {
    const notes = (await service.list()).find((c) => c.name === 'Notes');
    // A connector's own code and params (a folder's counts) reach the UI beside the platform.
    expect(await service.test(notes?.id ?? '')).toEqual({
      code: 'connection.folderReadable',
      params: { platform: 'folder', name: basename(folder), total: 1, capped: 0, 'kind.markdown': 1 },
      message: `Folder "${basename(folder)}" is readable: 1 file to index (1 Markdown).`,
    });
    expect(await service.testNew(yuque('another-secret-22'))).toEqual({
      code: 'connection.ok',
      params: { platform: 'yuque' },
      message: 'token ok (17 chars)',
    });
    expect(await toResult(() => impatient.testNew(yuque('hang')))).toEqual({
      ok: false,
      error: { code: 'TIMEOUT', message: 'No answer within 0.2 s.' },
    });
    expect(logLines.join('\n')).not.toMatch(/another-secret-22|tok-secret-value-1/);
    expect(logLines.join('\n')).toContain('[redacted]');
  });

  it('lets a connector persist rotated tokens', async () => {
    const wiki = (await service.list()).find((c) => c.name === 'Wiki');
    await connectors.forConnection(wiki?.id ?? '');
    await rotate?.({ refreshToken: 'rotated-token-3' });
    expect(await secrets.get(`connection:${wiki?.id}`)).toEqual({
      token: 'tok-secret-value-1',
      refreshToken: 'rotated-token-3',
    });
  });

  it('keeps a token rotated while testing an edit: a stored one is replaced at once, a typed one waits for Save', async () => {
    const wiki = (await service.list()).find((c) => c.name === 'Wiki');
    const id = wiki?.id ?? '';
    const ref = `connection:${id}`;
    await service.testUpdate({ id, secrets: { token: '' } });
    await rotate?.({ token: 'rotated-from-stored-4' });
    const afterStoredRotation = await secrets.get(ref);
    await service.testUpdate({ id, secrets: { token: 'typed-in-form-5' } });
    await rotate?.({ token: 'rotated-from-typed-6' });
    const beforeSave = await secrets.get(ref);
    await service.update({ id, secrets: { token: 'typed-in-form-5' } });
    expect({ afterStoredRotation, beforeSave, saved: await secrets.get(ref) }).toEqual({
      afterStoredRotation: { token: 'rotated-from-stored-4', refreshToken: 'rotated-token-3' },
      beforeSave: { token: 'rotated-from-stored-4', refreshToken: 'rotated-token-3' },
      saved: { token: 'rotated-from-typed-6', refreshToken: 'rotated-token-3' },
    });
    expect(logLines.join('\n')).not.toMatch(/rotated-from|typed-in-form/);
  });

  it('drops a rotation from a connector still running on credentials an edit replaced', async () => {
    const id = (await service.list()).find((c) => c.name === 'Wiki')?.id ?? '';
    const ref = `connection:${id}`;
    await connectors.forConnection(id);
    const fromOldConnector = rotate;
    await service.update({ id, secrets: { token: 'replaced-in-edit-7' } });
    await fromOldConnector?.({ token: 'rotated-by-old-connector-8', refreshToken: 'rotated-token-3' });
    const afterStaleRotation = await secrets.get(ref);
    await connectors.forConnection(id);
    await rotate?.({ token: 'rotated-by-new-connector-9' });
    expect({ afterStaleRotation, now: await secrets.get(ref) }).toEqual({
      afterStaleRotation: { token: 'replaced-in-edit-7', refreshToken: 'rotated-token-3' },
      now: { token: 'rotated-by-new-connector-9', refreshToken: 'rotated-token-3' },
    });
    expect(
      logLines.some(
        (line) => line.includes('a rotated credential was not stored') && line.includes('"token"'),
      ),
    ).toBe(true);
  });

  it('switches mode, renames, and removes with the secrets, after the removing event', async () => {
    const wiki = (await service.list()).find((c) => c.name === 'Wiki');
    const id = wiki?.id ?? '';
    expect(await service.setMode(id, 'direct')).toMatchObject({ mode: 'direct' });
    expect(await service.rename(id, 'Team Wiki')).toMatchObject({ name: 'Team Wiki' });
    await service.remove(id);
    expect({
      removedFirst,
      secret: await secrets.get(`connection:${id}`),
      names: (await service.list()).map((c) => c.name),
    }).toEqual({ removedFirst: [id], secret: null, names: ['Notes'] });
    expect(await toResult(() => service.remove(id))).toEqual({
      ok: false,
      error: { code: 'NOT_FOUND', message: `No connection with id "${id}".` },
    });
  });
});

describe('a connection whose platform gives no full text (direct-only)', () => {
  it('is created in direct mode even when asked for RAG, cannot be switched to RAG, and says why', async () => {
    const redactor = new SecretRedactor();
    const logger = createLogger({ sink: () => {}, level: 'error', redactor });
    // IMA stands in for a platform without a text API: only the repository's answer matters here.
    const repository = new ConnectionRepository(db, {
      secretFieldsOf: (ref) => secretFieldNames(secrets, ref),
      directOnlyOf: (platform) => platform === 'ima',
      limitationOf: (platform) =>
        platform === 'ima' ? { code: 'test.no-text', message: 'full text unavailable: no text API.' } : null,
    });
    const lifecycle = new ConnectionEventBus();
    const connectionSecrets = new ConnectionSecrets(secrets, repository, logger, redactor);
    const local = new ConnectionService({
      repository,
      secrets: connectionSecrets,
      connectors: new ConnectionConnectors({ repository, secrets: connectionSecrets, lifecycle, logger }),
      lifecycle,
      logger,
    });
    const notes = await local.add({
      platform: 'ima',
      name: 'IMA notes',
      mode: 'rag',
      config: { clientId: 'client' },
      secrets: { apiKey: 'ima-key-value' },
    });
    expect({ mode: notes.mode, directOnly: notes.directOnly }).toEqual({ mode: 'direct', directOnly: true });
    expect(await toResult(() => local.setMode(notes.id, 'rag'))).toEqual({
      ok: false,
      error: {
        code: 'UNSUPPORTED',
        message:
          '"IMA notes" cannot be indexed: full text unavailable: no text API. It is searched live (direct mode) only.',
      },
    });
    expect((await repository.get(notes.id)).mode).toBe('direct');
    // Direct stays allowed; an ordinary platform is unaffected.
    expect((await local.setMode(notes.id, 'direct')).mode).toBe('direct');
    const folderView = await local.add({
      platform: 'folder',
      name: 'Plain folder',
      mode: 'rag',
      config: { path: folder },
      secrets: {},
    });
    expect({ mode: folderView.mode, directOnly: folderView.directOnly }).toEqual({
      mode: 'rag',
      directOnly: false,
    });
    await local.remove(notes.id);
    await local.remove(folderView.id);
  });
});
