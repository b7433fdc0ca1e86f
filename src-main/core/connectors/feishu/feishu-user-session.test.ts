/**
 * One Feishu user session per connection: every connector of it (a sync, the direct-search one,
 * "Test connection") shares one refresh at a time, so the single-use refresh token is never spent
 * twice; rotation goes through the documented v3 endpoint, falling back to v2 only where v3 is not
 * served; refusals say what to do and only a dead refresh token signs the user out.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { FeishuConnector } from './feishu-connector';
import { FeishuUserSessions } from './feishu-user-session';
import { startFeishuFake, type FeishuFake } from '../../../testing/fakes/feishu-fake';
import { failure, listAll } from '../../../testing/connector-test-kit';

let fake: FeishuFake;
beforeEach(async () => {
  fake = await startFeishuFake({ documents: 6, extraNodes: false });
});
afterEach(() => fake.close());

interface Built {
  connector: FeishuConnector;
  rotations: [string, string][];
  lost: number[];
}

function build(
  sessions: FeishuUserSessions | undefined,
  connectionId: string | undefined,
  refreshToken = fake.credentials.userRefreshToken,
): Built {
  const rotations: [string, string][] = [];
  const lost: number[] = [];
  const connector = new FeishuConnector(
    'feishu',
    {
      connectionId,
      config: { baseUrl: fake.baseUrl, appId: fake.credentials.appId },
      secrets: { appSecret: fake.credentials.appSecret, userRefreshToken: refreshToken },
      logger: silentLogger(),
      rotateSecret: async (field, previous, next) => void rotations.push([previous, next]),
      onUserAuthLost: () => void lost.push(Date.now()),
    },
    {
      sessions,
      http: { backoffBaseMs: 5, backoffMaxMs: 20 },
      rates: { api: { intervalMs: 1000, intervalCap: 1000 } },
    },
  );
  return { connector, rotations, lost };
}

const tokenCalls = () =>
  fake.control.requests.filter((r) => r.path === '/oauth/v3/token' || r.path.includes('/authen/v2/'));

describe('FeishuUserSession', () => {
  it('a sync, a direct search and a Test connection of one connection refresh once together; nobody is signed out', async () => {
    const sessions = new FeishuUserSessions();
    const [sync, direct, test] = [build(sessions, 'c1'), build(sessions, 'c1'), build(sessions, 'c1')];
    const outcomes = await Promise.allSettled([
      listAll(sync.connector),
      direct.connector.search('Notes', { limit: 2 }),
      test.connector.validate(),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    expect(tokenCalls().map((r) => [r.path, r.status])).toEqual([['/oauth/v3/token', 200]]);
    // The access token expires: the next uses of all three again share one refresh.
    fake.control.expireTokens();
    await Promise.all([
      direct.connector.search('Notes', { limit: 2 }),
      test.connector.validate(),
      listAll(sync.connector),
    ]);
    expect(tokenCalls().map((r) => r.status)).toEqual([200, 200]);
    const rotations = [...sync.rotations, ...direct.rotations, ...test.rotations];
    expect(rotations).toHaveLength(2);
    expect(rotations[0]![0]).toBe(fake.credentials.userRefreshToken);
    expect(rotations[1]![0]).toBe(rotations[0]![1]); // a chain: each refresh spent the previous rotation
    expect(rotations[1]![1]).toBe(fake.control.latestRefreshToken);
    expect([...sync.lost, ...direct.lost, ...test.lost]).toEqual([]);
  });

  it('without a shared session, two connectors of one connection spend the same refresh token and one is signed out (why the session exists)', async () => {
    const [sync, test] = [build(undefined, undefined), build(undefined, undefined)];
    const outcomes = await Promise.allSettled([
      sync.connector.search('Notes', { limit: 1 }),
      test.connector.validate(),
    ]);
    const rejected = outcomes.filter((o) => o.status === 'rejected') as PromiseRejectedResult[];
    expect(rejected.map((o) => (o.reason as Error).message)).toEqual([expect.stringContaining('code 20073')]);
  });

  it('a connector built from the stored token after a rotation joins the same session; a new sign-in starts a new one', async () => {
    const sessions = new FeishuUserSessions();
    const first = build(sessions, 'c2');
    await first.connector.validate();
    const rotated = first.rotations[0]![1];
    // Built from the value now stored (or, before the store caught up, from the spent one): same session, no refresh.
    await build(sessions, 'c2', rotated).connector.validate();
    await build(sessions, 'c2', fake.credentials.userRefreshToken).connector.validate();
    expect(tokenCalls()).toHaveLength(1);
    build(sessions, 'c2', 'ur-some-new-sign-in');
    expect(sessions.size).toBe(1);
    expect(
      (await failure(build(sessions, 'c2', 'ur-some-new-sign-in').connector.validate())).message,
    ).toContain('code 20026');
  });

  it('syncs twice in a row refreshing through the documented v3 endpoint, keeping the rotation, and nothing else', async () => {
    const sessions = new FeishuUserSessions();
    const first = build(sessions, 'c3');
    await listAll(first.connector);
    fake.control.expireTokens();
    fake.control.endGracePeriods();
    const second = build(sessions, 'c3', first.rotations.at(-1)![1]);
    await listAll(second.connector);
    expect(tokenCalls().map((r) => [r.method, r.path, r.status])).toEqual([
      ['POST', '/oauth/v3/token', 200],
      ['POST', '/oauth/v3/token', 200],
    ]);
    expect([...first.rotations, ...second.rotations].at(-1)![1]).toBe(fake.control.latestRefreshToken);
  });

  it('falls back to the deprecated v2 endpoint only where v3 is not served, and stays there', async () => {
    fake.control.serveV3(false);
    const session = build(new FeishuUserSessions(), 'c4');
    await session.connector.validate();
    fake.control.expireTokens();
    await session.connector.search('Notes', { limit: 1 });
    expect(tokenCalls().map((r) => [r.path, r.status])).toEqual([
      ['/oauth/v3/token', 404],
      ['/open-apis/authen/v2/oauth/token', 200],
      ['/open-apis/authen/v2/oauth/token', 200],
    ]);
  });

  it('says refresh is switched off in the console (20074) without signing the user out; a revoked token (20064) does sign out', async () => {
    fake.control.allowRefresh(false);
    const off = build(new FeishuUserSessions(), 'c5');
    const disabled = await failure(off.connector.validate());
    expect([disabled.code, disabled.message, off.lost.length]).toEqual([
      'PERMISSION_DENIED',
      expect.stringContaining('turn on "Refresh user_access_token" (刷新 user_access_token)'),
      0,
    ]);
    fake.control.allowRefresh(true);
    fake.control.revokeRefreshToken();
    const revoked = build(new FeishuUserSessions(), 'c6');
    const error = await failure(revoked.connector.validate());
    expect([error.code, error.message, revoked.lost.length]).toEqual([
      'AUTH_EXPIRED',
      expect.stringContaining('code 20064'),
      1,
    ]);
  });
});
