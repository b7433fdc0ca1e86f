/**
 * The Feishu/Lark browser sign-in end to end on the real composition root: the fake's authorize
 * page redirects to Cairn's loopback address over real HTTP, the code is exchanged with PKCE, the
 * refresh token lands in the secret store only, and direct search then works and keeps rotating.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CairnEvents } from '@shared/contract';
import type { ConnectionView } from '@shared/models';
import { startFeishuFake, type FeishuFake } from '../../testing/fakes/feishu-fake';
import { secretRefFor } from './connection-repository';
import { unwrap } from '../../testing/integration-kit';
import { createLogger, SecretRedactor } from '../logging/logger';
import { createCairn, type CairnInternals } from '../app/create-cairn';

let fake: FeishuFake;
let cairn: CairnInternals;
const logLines: string[] = [];
const events: string[] = [];

beforeAll(async () => {
  fake = await startFeishuFake({ documents: 12 });
  const redactor = new SecretRedactor();
  cairn = await createCairn({
    scheduler: false,
    env: {},
    redactor,
    logger: createLogger({ redactor, level: 'debug', sink: (line) => void logLines.push(line) }),
  });
  cairn.events.onAny((name, payload) => void events.push(JSON.stringify({ name, payload })));
});

afterAll(async () => {
  await cairn.dispose();
  await fake.close();
});

/** A direct-mode Feishu connection without user authorisation; port 0 because the fake accepts any redirect. */
async function addFeishu(name: string): Promise<ConnectionView> {
  return unwrap(
    await cairn.api.connections.add({
      platform: 'feishu',
      name,
      mode: 'direct',
      config: { baseUrl: fake.baseUrl, appId: fake.credentials.appId, redirectPort: 0 },
      secrets: { appSecret: fake.credentials.appSecret },
    }),
  );
}

function finished(connectionId: string): Promise<CairnEvents['auth.finished']> {
  return new Promise((resolve) => {
    const off = cairn.events.on('auth.finished', (payload) => {
      if (payload.connectionId !== connectionId) return;
      off();
      resolve(payload);
    });
  });
}

async function view(id: string): Promise<ConnectionView> {
  return unwrap(await cairn.api.connections.list()).find((candidate) => candidate.id === id)!;
}

async function storedRefreshToken(id: string): Promise<string | undefined> {
  return (await cairn.secrets.get(secretRefFor(id)))?.userRefreshToken;
}

/** What the browser does: load the authorize page, follow its redirect to the loopback, read the answer page. */
async function browse(
  authorizeUrl: string,
): Promise<{ code: string | null; outcome: string | undefined; redirect: URL }> {
  const consent = await fetch(authorizeUrl, { redirect: 'manual' });
  const redirect = new URL(consent.headers.get('location')!);
  const page = await (await fetch(redirect)).text();
  return {
    code: redirect.searchParams.get('code'),
    outcome: /data-outcome="([a-z-]+)"/.exec(page)?.[1],
    redirect,
  };
}

async function portIsClosed(url: URL): Promise<boolean> {
  return fetch(url).then(
    () => false,
    () => true,
  );
}

async function feishuHits(
  connectionId: string,
  query: string,
): Promise<{ hits: number; warnings: string[] }> {
  const response = unwrap(await cairn.api.search.query({ query, k: 10, connectionIds: [connectionId] }));
  return {
    hits: response.hits.filter((hit) => hit.platform === 'feishu' && hit.source === 'direct').length,
    warnings: response.warnings.map((warning) => warning.error.code),
  };
}

describe('Feishu user sign-in', () => {
  it('signs in through the loopback redirect; the refresh token stays in the secret store; search works and keeps rotating', async () => {
    const connection = await addFeishu('飞书 wiki');
    expect([connection.userAuth, await feishuHits(connection.id, '离线同步')]).toEqual([
      'none',
      { hits: 0, warnings: ['PERMISSION_DENIED'] },
    ]);

    const outcome = finished(connection.id);
    const { authorizeUrl, opened } = unwrap(await cairn.api.connections.authorize({ id: connection.id }));
    const url = new URL(authorizeUrl);
    const params = Object.fromEntries(url.searchParams);
    expect({
      opened,
      path: url.pathname,
      client: params.client_id,
      type: params.response_type,
      method: params.code_challenge_method,
      scope: params.scope?.split(' ').includes('offline_access'),
      redirect: /^http:\/\/127\.0\.0\.1:\d+\/callback$/.test(params.redirect_uri ?? ''),
    }).toEqual({
      opened: false,
      path: '/open-apis/authen/v1/authorize',
      client: fake.credentials.appId,
      type: 'code',
      method: 'S256',
      scope: true,
      redirect: true,
    });
    expect((await view(connection.id)).userAuth).toBe('pending');

    const browser = await browse(authorizeUrl);
    expect([browser.outcome, await outcome]).toEqual([
      'signed-in',
      { connectionId: connection.id, ok: true, error: null },
    ]);
    expect(await portIsClosed(browser.redirect)).toBe(true);
    const signedIn = await storedRefreshToken(connection.id);
    const after = await view(connection.id);
    expect({
      token: signedIn,
      userAuth: after.userAuth,
      limitation: after.limitation,
      fields: after.secretFields.sort(),
      config: after.config,
    }).toEqual({
      token: fake.control.latestRefreshToken,
      userAuth: 'authorized',
      limitation: null,
      fields: ['appSecret', 'userRefreshToken'],
      config: { baseUrl: fake.baseUrl, appId: fake.credentials.appId, redirectPort: 0 },
    });

    // The direct connector was rebuilt: it refreshes with the new token (spending it) and stores the rotated one.
    const first = await feishuHits(connection.id, '离线同步');
    const rotated = await storedRefreshToken(connection.id);
    fake.control.expireTokens();
    const second = await feishuHits(connection.id, '离线同步');
    const rotatedAgain = await storedRefreshToken(connection.id);
    expect({
      first,
      second,
      rotated: rotated !== signedIn && rotatedAgain !== rotated,
      latest: rotatedAgain === fake.control.latestRefreshToken,
    }).toEqual({
      first: { hits: expect.any(Number), warnings: [] },
      second: { hits: first.hits, warnings: [] },
      rotated: true,
      latest: true,
    });
    expect(first.hits).toBeGreaterThan(0);

    const published = [
      ...events,
      ...logLines,
      JSON.stringify(unwrap(await cairn.api.connections.list())),
      JSON.stringify(unwrap(await cairn.api.app.status())),
    ].join('\n');
    const leaked = [signedIn, rotated, rotatedAgain, browser.code, fake.credentials.appSecret].filter(
      (secret) => secret && published.includes(secret),
    );
    expect(leaked).toEqual([]);
  });

  it('runs one flow per connection; a callback with another state is ignored; cancel ends it and frees the port', async () => {
    const connection = await addFeishu('Cancelled sign-in');
    const outcome = finished(connection.id);
    const first = unwrap(await cairn.api.connections.authorize({ id: connection.id }));
    const again = unwrap(await cairn.api.connections.authorize({ id: connection.id }));
    const redirect = new URL(new URL(first.authorizeUrl).searchParams.get('redirect_uri')!);
    const forged = await fetch(`${redirect}?code=forged-code&state=not-the-flows-state`);
    expect([
      again.authorizeUrl === first.authorizeUrl,
      forged.status,
      (await view(connection.id)).userAuth,
    ]).toEqual([true, 400, 'pending']);
    unwrap(await cairn.api.connections.cancelAuthorize({ id: connection.id }));
    expect(await outcome).toEqual({
      connectionId: connection.id,
      ok: false,
      error: { code: 'CANCELLED', message: 'Sign-in cancelled.' },
    });
    expect([
      await portIsClosed(redirect),
      (await view(connection.id)).userAuth,
      await storedRefreshToken(connection.id),
    ]).toEqual([true, 'none', undefined]);
    // Cancelling when nothing waits is not an error.
    expect((await cairn.api.connections.cancelAuthorize({ id: connection.id })).ok).toBe(true);
  });

  it('removing a connection ends its waiting sign-in and frees the port', async () => {
    const connection = await addFeishu('Removed while signing in');
    const outcome = finished(connection.id);
    const { authorizeUrl } = unwrap(await cairn.api.connections.authorize({ id: connection.id }));
    unwrap(await cairn.api.connections.remove({ id: connection.id }));
    expect([
      (await outcome).error?.code,
      await portIsClosed(new URL(new URL(authorizeUrl).searchParams.get('redirect_uri')!)),
    ]).toEqual(['CANCELLED', true]);
  });

  it('ends with PERMISSION_DENIED and stores nothing when the user refuses in the browser', async () => {
    const connection = await addFeishu('Refused sign-in');
    fake.control.setConsent('deny');
    try {
      const outcome = finished(connection.id);
      const browser = await browse(
        unwrap(await cairn.api.connections.authorize({ id: connection.id })).authorizeUrl,
      );
      const result = await outcome;
      expect([
        browser.outcome,
        result.ok,
        result.error?.code,
        await storedRefreshToken(connection.id),
        (await view(connection.id)).userAuth,
      ]).toEqual(['denied', false, 'PERMISSION_DENIED', undefined, 'none']);
    } finally {
      fake.control.setConsent('approve');
    }
  });

  it('shows an authorisation the platform refused for good as expired until the next sign-in', async () => {
    const connection = await addFeishu('Expiring sign-in');
    const signIn = async () => {
      const outcome = finished(connection.id);
      await browse(unwrap(await cairn.api.connections.authorize({ id: connection.id })).authorizeUrl);
      return (await outcome).ok;
    };
    expect(await signIn()).toBe(true);
    fake.control.expireRefreshTokens();
    const refused = await feishuHits(connection.id, '离线同步');
    expect([refused.warnings, (await view(connection.id)).userAuth]).toEqual([['AUTH_EXPIRED'], 'expired']);
    expect(await signIn()).toBe(true);
    expect([
      (await view(connection.id)).userAuth,
      (await feishuHits(connection.id, '离线同步')).warnings,
    ]).toEqual(['authorized', []]);
  });

  it('signs out: the refresh token leaves the secret store, the app credentials stay, search asks for a sign-in again', async () => {
    const connection = await addFeishu('Shared computer');
    const outcome = finished(connection.id);
    await browse(unwrap(await cairn.api.connections.authorize({ id: connection.id })).authorizeUrl);
    expect([(await outcome).ok, await feishuHits(connection.id, '离线同步')]).toEqual([
      true,
      { hits: expect.any(Number), warnings: [] },
    ]);

    const signedOut = unwrap(await cairn.api.connections.signOut({ id: connection.id }));
    expect({
      userAuth: signedOut.userAuth,
      fields: signedOut.secretFields,
      stored: await cairn.secrets.get(secretRefFor(connection.id)),
      limitation: signedOut.limitationCode,
      config: signedOut.config,
    }).toEqual({
      userAuth: 'none',
      fields: ['appSecret'],
      stored: { appSecret: fake.credentials.appSecret },
      limitation: 'feishu.no-user-auth',
      config: connection.config,
    });
    // The direct-search connector that held the authorisation was dropped.
    expect(await feishuHits(connection.id, '离线同步')).toEqual({ hits: 0, warnings: ['PERMISSION_DENIED'] });
    // Signing out again is harmless; signing in again works.
    expect(unwrap(await cairn.api.connections.signOut({ id: connection.id })).userAuth).toBe('none');
    const again = finished(connection.id);
    await browse(unwrap(await cairn.api.connections.authorize({ id: connection.id })).authorizeUrl);
    expect([(await again).ok, (await view(connection.id)).userAuth]).toEqual([true, 'authorized']);
  });

  it('signing out stops a running sync first, so it cannot write its rotated token back', async () => {
    const connection = unwrap(
      await cairn.api.connections.add({
        platform: 'feishu',
        name: 'Syncing sign-out',
        mode: 'rag',
        config: { baseUrl: fake.baseUrl, appId: fake.credentials.appId, redirectPort: 0 },
        secrets: { appSecret: fake.credentials.appSecret },
      }),
    );
    const outcome = finished(connection.id);
    await browse(unwrap(await cairn.api.connections.authorize({ id: connection.id })).authorizeUrl);
    expect((await outcome).ok).toBe(true);
    fake.control.inject({ kind: 'slow', delayMs: 300 }, { path: 'docs/v1/content', times: 100 });
    const fetching = new Promise<void>((resolve) => {
      const off = cairn.events.on('sync.progress', (progress) => {
        if (progress.connectionId !== connection.id || progress.phase !== 'fetching') return;
        off();
        resolve();
      });
    });
    const { runId } = unwrap(await cairn.api.sync.start({ connectionId: connection.id }));
    await fetching;
    const signedOut = unwrap(await cairn.api.connections.signOut({ id: connection.id }));
    await cairn.whenIdle();
    const run = unwrap(await cairn.api.sync.runs({ connectionId: connection.id })).find(
      (candidate) => candidate.id === runId,
    );
    expect([run?.status, signedOut.userAuth, await storedRefreshToken(connection.id)]).toEqual([
      'cancelled',
      'none',
      undefined,
    ]);
  });

  it('signing out ends a waiting sign-in and frees its port', async () => {
    const connection = await addFeishu('Signed out while waiting');
    const outcome = finished(connection.id);
    const { authorizeUrl } = unwrap(await cairn.api.connections.authorize({ id: connection.id }));
    const signedOut = unwrap(await cairn.api.connections.signOut({ id: connection.id }));
    expect([
      (await outcome).error?.code,
      signedOut.userAuth,
      await portIsClosed(new URL(new URL(authorizeUrl).searchParams.get('redirect_uri')!)),
    ]).toEqual(['CANCELLED', 'none', true]);
  });

  it("asks for the connection's own scopes when it has them, and for the defaults again once they are cleared", async () => {
    const connection = unwrap(
      await cairn.api.connections.add({
        platform: 'feishu',
        name: 'Scoped',
        mode: 'direct',
        config: {
          baseUrl: fake.baseUrl,
          appId: fake.credentials.appId,
          redirectPort: 0,
          oauthScopes: 'wiki:wiki:readonly  search:docs:read',
        },
        secrets: { appSecret: fake.credentials.appSecret },
      }),
    );
    const scopeAsked = async () => {
      const { authorizeUrl } = unwrap(await cairn.api.connections.authorize({ id: connection.id }));
      unwrap(await cairn.api.connections.cancelAuthorize({ id: connection.id }));
      return new URL(authorizeUrl).searchParams.get('scope');
    };
    const own = await scopeAsked();
    unwrap(await cairn.api.connections.update({ id: connection.id, config: { oauthScopes: '' } }));
    expect([own, await scopeAsked()]).toEqual([
      'offline_access wiki:wiki:readonly search:docs:read',
      'offline_access search:docs:read wiki:wiki:readonly docs:document.content:read docx:document:readonly sheets:spreadsheet:read bitable:app:readonly',
    ]);
  });

  it('answers UNSUPPORTED for a platform without a user sign-in', async () => {
    const folder = unwrap(
      await cairn.api.connections.add({
        platform: 'folder',
        name: 'notes',
        mode: 'rag',
        config: { path: '/tmp' },
        secrets: {},
      }),
    );
    const result = await cairn.api.connections.authorize({ id: folder.id });
    const signOut = await cairn.api.connections.signOut({ id: folder.id });
    expect([
      folder.userAuth,
      result.ok ? null : result.error.code,
      signOut.ok ? null : signOut.error.code,
    ]).toEqual([undefined, 'UNSUPPORTED', 'UNSUPPORTED']);
  });
});
