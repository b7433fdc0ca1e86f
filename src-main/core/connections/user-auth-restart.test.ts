/**
 * "expired" survives a restart: Cairn on a real data dir (database, secret file, lock) is closed
 * and reopened around a refusal of the stored Feishu authorisation, a new sign-in, and an edit.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserAuthState } from '@shared/models';
import { startFeishuFake, type FeishuFake } from '../../testing/fakes/feishu-fake';
import { unwrap } from '../../testing/integration-kit';
import { createCairn, type CairnInternals } from '../app/create-cairn';

let fake: FeishuFake;
let dataDir: string;
let cairn: CairnInternals | undefined;

beforeAll(async () => {
  fake = await startFeishuFake({ documents: 4 });
  dataDir = await mkdtemp(join(tmpdir(), 'cairn-auth-restart-'));
});

afterAll(async () => {
  await cairn?.dispose();
  await fake.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function restart(): Promise<CairnInternals> {
  await cairn?.dispose();
  cairn = await createCairn({ dataDir, scheduler: false, env: {} });
  return cairn;
}

async function userAuthOf(app: CairnInternals, id: string): Promise<UserAuthState | undefined> {
  return unwrap(await app.api.connections.list()).find((view) => view.id === id)?.userAuth;
}

/** The browser: the fake's authorize page redirects at once to Cairn's loopback address. */
async function signIn(app: CairnInternals, id: string): Promise<boolean> {
  const outcome = new Promise<boolean>((resolve) => {
    const off = app.events.on('auth.finished', (payload) => {
      if (payload.connectionId !== id) return;
      off();
      resolve(payload.ok);
    });
  });
  const consent = await fetch(unwrap(await app.api.connections.authorize({ id })).authorizeUrl, {
    redirect: 'manual',
  });
  await (await fetch(consent.headers.get('location')!)).text();
  return outcome;
}

/** A live search makes the connector refresh; a refused refresh token marks the authorisation lost. */
async function searchUntilExpired(app: CairnInternals, id: string): Promise<string[]> {
  const expired = new Promise<void>((resolve) => {
    const off = app.events.on('connections.changed', (views) => {
      if (views.find((view) => view.id === id)?.userAuth !== 'expired') return;
      off();
      resolve();
    });
  });
  const response = unwrap(await app.api.search.query({ query: '离线同步', k: 5, connectionIds: [id] }));
  await expired;
  return response.warnings.map((warning) => warning.error.code);
}

describe('a refused user authorisation after a restart', () => {
  it('stays "expired" until a sign-in or an edit of the credentials, across restarts', async () => {
    let app = await restart();
    const { id } = unwrap(
      await app.api.connections.add({
        platform: 'feishu',
        name: '飞书',
        mode: 'direct',
        config: { baseUrl: fake.baseUrl, appId: fake.credentials.appId, redirectPort: 0 },
        secrets: { appSecret: fake.credentials.appSecret },
      }),
    );
    expect(await signIn(app, id)).toBe(true);
    fake.control.expireRefreshTokens();
    expect(await searchUntilExpired(app, id)).toEqual(['AUTH_EXPIRED']);

    app = await restart();
    const afterRestart = await userAuthOf(app, id);
    expect(await signIn(app, id)).toBe(true);
    const afterSignIn = await userAuthOf(app, id);
    app = await restart();
    const afterSecondRestart = await userAuthOf(app, id);
    expect([afterRestart, afterSignIn, afterSecondRestart]).toEqual(['expired', 'authorized', 'authorized']);

    // An edit of the credentials clears it too: a refusal of the old ones says nothing about the new.
    fake.control.expireRefreshTokens();
    await searchUntilExpired(app, id);
    unwrap(await app.api.connections.update({ id, secrets: { userRefreshToken: 'pasted-from-elsewhere' } }));
    const afterEdit = await userAuthOf(app, id);
    app = await restart();
    expect([afterEdit, await userAuthOf(app, id)]).toEqual(['authorized', 'authorized']);
  });
});
