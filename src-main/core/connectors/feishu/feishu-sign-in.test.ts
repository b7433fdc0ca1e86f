/** The Feishu connector's half of the sign-in against the fake: authorize URL and the code exchange's refusals. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPkcePair, createOAuthState } from '../../auth/pkce';
import { CairnError } from '../../errors';
import { createLogger } from '../../logging/logger';
import { startFeishuFake, type FeishuFake } from '../../../testing/fakes/feishu-fake';
import { FeishuConnector } from './feishu-connector';
import { feishuAuthorizeUrl, scopeListProblem, signInPort, signInScopes } from './feishu-sign-in';

const REDIRECT = 'http://127.0.0.1:18765/callback';
let fake: FeishuFake;

beforeAll(async () => {
  fake = await startFeishuFake({ documents: 2 });
});
afterAll(() => fake.close());

function connector(): FeishuConnector {
  return new FeishuConnector(
    'feishu',
    {
      config: { baseUrl: fake.baseUrl, appId: fake.credentials.appId },
      secrets: { appSecret: fake.credentials.appSecret },
      logger: createLogger({ level: 'error', sink: () => {} }),
    },
    { http: { maxRetries: 0 } },
  );
}

/** A code the fake issued for this challenge, as the browser would bring it back. */
async function codeFor(challenge: string, redirectUri = REDIRECT): Promise<string> {
  const url = connector().userSignIn.authorizeUrl({
    redirectUri,
    state: createOAuthState(),
    codeChallenge: challenge,
  });
  const answer = await fetch(url, { redirect: 'manual' });
  return new URL(answer.headers.get('location')!).searchParams.get('code')!;
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof CairnError)) throw new Error(`expected a CairnError, got ${String(error)}`);
  return `${error.code} ${/code (\d+)/.exec(error.message)?.[1]}`;
}

describe('Feishu sign-in pieces', () => {
  it('builds the documented authorize URL on the accounts host, with offline_access always asked for', () => {
    const url = new URL(
      feishuAuthorizeUrl({
        accountsBaseUrl: 'https://accounts.feishu.cn/',
        clientId: 'cli_x',
        redirectUri: REDIRECT,
        scopes: signInScopes('wiki:wiki:readonly, search:docs:read'),
        state: 's',
        codeChallenge: 'c',
      }),
    );
    expect([url.origin + url.pathname, Object.fromEntries(url.searchParams)]).toEqual([
      'https://accounts.feishu.cn/open-apis/authen/v1/authorize',
      {
        client_id: 'cli_x',
        response_type: 'code',
        redirect_uri: REDIRECT,
        scope: 'offline_access wiki:wiki:readonly search:docs:read',
        state: 's',
        code_challenge: 'c',
        code_challenge_method: 'S256',
      },
    ]);
    expect([signInPort(undefined), signInPort('0'), signInPort(20_000)]).toEqual([18765, 0, 20_000]);
    expect(() => signInPort('http')).toThrow(/not a port/);
  });

  it('checks a scope list: space-separated scope names, at most 50 with offline_access; duplicates are asked for once', () => {
    const fifty = Array.from({ length: 50 }, (_, index) => `scope:${index}:read`).join(' ');
    expect([
      scopeListProblem('search:docs:read  wiki:wiki:readonly\tdocs:document.content:read'),
      scopeListProblem('search:docs:read,wiki:wiki:readonly'),
      scopeListProblem('"search:docs:read"'),
      scopeListProblem(fifty),
      scopeListProblem(`offline_access ${fifty.split(' ').slice(1).join(' ')}`),
    ]).toEqual([
      null,
      'oauthScopes: "search:docs:read,wiki:wiki:readonly" is not a scope name (separate scopes with spaces, e.g. "search:docs:read wiki:wiki:readonly")',
      'oauthScopes: ""search:docs:read"" is not a scope name (separate scopes with spaces, e.g. "search:docs:read wiki:wiki:readonly")',
      'oauthScopes: 51 scopes with offline_access, but the sign-in page takes at most 50',
      null,
    ]);
    expect([signInScopes('wiki:wiki:readonly wiki:wiki:readonly'), signInScopes(undefined)]).toEqual([
      ['offline_access', 'wiki:wiki:readonly'],
      [
        'offline_access',
        'search:docs:read',
        'wiki:wiki:readonly',
        'docs:document.content:read',
        'docx:document:readonly',
        'sheets:spreadsheet:read',
        'bitable:app:readonly',
      ],
    ]);
  });

  it('exchanges a code once with its verifier, and names every refusal precisely', async () => {
    const pkce = createPkcePair();
    const code = await codeFor(pkce.challenge);
    const signIn = connector().userSignIn;
    const stored = await signIn.exchangeCode({ code, redirectUri: REDIRECT, codeVerifier: pkce.verifier });
    expect(stored).toEqual({ userRefreshToken: fake.control.latestRefreshToken });
    const reused = await refusal(
      signIn.exchangeCode({ code, redirectUri: REDIRECT, codeVerifier: pkce.verifier }),
    );
    const wrongVerifier = await refusal(
      signIn.exchangeCode({
        code: await codeFor(pkce.challenge),
        redirectUri: REDIRECT,
        codeVerifier: createPkcePair().verifier,
      }),
    );
    const otherRedirect = await refusal(
      signIn.exchangeCode({
        code: await codeFor(pkce.challenge),
        redirectUri: 'http://127.0.0.1:1/callback',
        codeVerifier: pkce.verifier,
      }),
    );
    const late = await codeFor(pkce.challenge);
    fake.control.expireAuthorizationCodes();
    const expired = await refusal(
      signIn.exchangeCode({ code: late, redirectUri: REDIRECT, codeVerifier: pkce.verifier }),
    );
    expect({ reused, wrongVerifier, otherRedirect, expired }).toEqual({
      reused: 'AUTH_INVALID 20065',
      wrongVerifier: 'AUTH_INVALID 20049',
      otherRedirect: 'AUTH_INVALID 20071',
      expired: 'AUTH_EXPIRED 20004',
    });
  });

  it('only accepts redirect URLs the console registered, when it has a list', async () => {
    fake.control.registerRedirectUris([REDIRECT]);
    try {
      const url = connector().userSignIn.authorizeUrl({
        redirectUri: 'http://127.0.0.1:9999/callback',
        state: 's',
        codeChallenge: createPkcePair().challenge,
      });
      const page = await fetch(url, { redirect: 'manual' });
      expect([page.status, (await page.text()).includes('20029')]).toEqual([400, true]);
      expect(await codeFor(createPkcePair().challenge)).toMatch(/^[A-Za-z0-9_-]{64}$/);
    } finally {
      fake.control.registerRedirectUris(null);
    }
  });
});
