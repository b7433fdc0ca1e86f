/**
 * The user sign-in half of the Feishu/Lark fake: the authorize page
 * (GET /open-apis/authen/v1/authorize, obtain-oauth-code page) and the checks of the
 * authorization_code grant (get-user-access-token page, error codes 20001/20003/20004/20024/
 * 20049/20065/20071). Codes live 5 minutes and are single-use. PKCE: S256 or plain (the page's
 * default when code_challenge_method is absent); like the v3 endpoint (connectors.md §1.2), a
 * code_verifier sent for a code issued without code_challenge is refused.
 *
 * Not imitated: the real consent screen, login, scope checks against the app's enabled scopes
 * (20027), app availability (20010), and which code a mismatched redirect_uri shows on the page
 * (20029 per third-party notes, [S]). Redirect URLs are accepted as they come unless a test
 * registers a list, which is then matched exactly like the console's list.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FakeRequest, FakeResponse } from './fake-server';

/** approve: redirect with a code at once (tests); deny: redirect with error=access_denied; page: show Approve / Deny. */
export type ConsentMode = 'approve' | 'deny' | 'page';

interface IssuedCode {
  clientId: string;
  redirectUri: string;
  challenge: string | null;
  method: 'S256' | 'plain';
  scope: string;
  expiresAt: number;
  used: boolean;
}

export type Redemption = { ok: true; scope: string } | { ok: false; response: FakeResponse };

const CODE_TTL_MS = 5 * 60_000;
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

function htmlEscape(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

function html(status: number, body: string): FakeResponse {
  return {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    raw: `<!doctype html><html><head><meta charset="utf-8"><title>飞书授权 (fake)</title></head><body>${body}</body></html>`,
  };
}

function oauthError(code: number, error: string, description: string): Redemption {
  return { ok: false, response: { status: 400, body: { code, error, error_description: description } } };
}

function redirect(target: URL): FakeResponse {
  return {
    status: 302,
    headers: { location: target.toString(), 'content-type': 'text/plain; charset=utf-8' },
    raw: '',
  };
}

export class FeishuCodeGrantFake {
  private readonly codes = new Map<string, IssuedCode>();
  consent: ConsentMode = 'approve';
  /** null accepts any redirect_uri; a list is matched exactly. */
  registeredRedirectUris: string[] | null = null;

  constructor(private readonly appId: string) {}

  /** Every issued code is past its 5 minutes. */
  expireCodes(): void {
    for (const code of this.codes.values()) code.expiresAt = 0;
  }

  authorizePage(request: FakeRequest): FakeResponse {
    const query = request.url.searchParams;
    const clientId = query.get('client_id') ?? '';
    const redirectUri = query.get('redirect_uri') ?? '';
    const method = query.get('code_challenge_method') ?? 'plain';
    let target: URL;
    try {
      target = new URL(redirectUri);
    } catch {
      return html(400, '<p>20029: redirect_uri 请求不合法 / redirect_uri is invalid</p>');
    }
    if (this.registeredRedirectUris && !this.registeredRedirectUris.includes(redirectUri))
      return html(400, '<p>20029: redirect_uri 请求不合法 / redirect_uri is not registered</p>');
    if (clientId !== this.appId) return html(400, '<p>client_id is invalid / 应用不存在</p>');
    if (query.get('response_type') !== 'code') return html(400, '<p>response_type must be code</p>');
    if (method !== 'S256' && method !== 'plain')
      return html(400, '<p>code_challenge_method must be S256 or plain</p>');
    const state = query.get('state');
    const decision = query.get('fake_decision') ?? (this.consent === 'page' ? null : this.consent);
    if (decision === null) {
      const choose = (value: 'approve' | 'deny') => {
        const link = new URL(request.url.toString());
        link.searchParams.set('fake_decision', value);
        return `${link.pathname}${link.search}`;
      };
      return html(
        200,
        `<main><h1>Cairn Fake 想要访问你的飞书文档</h1><p>Scopes: ${htmlEscape(query.get('scope') ?? '')}</p><a id="approve" href="${htmlEscape(choose('approve'))}">Approve / 授权</a> <a id="deny" href="${htmlEscape(choose('deny'))}">Deny / 拒绝</a></main>`,
      );
    }
    if (decision === 'deny') {
      target.searchParams.set('error', 'access_denied');
    } else {
      const code = randomBytes(48).toString('base64url'); // 64 chars of [A-Za-z0-9_-], like the page's example
      const challenge = query.get('code_challenge');
      this.codes.set(code, {
        clientId,
        redirectUri,
        challenge,
        method,
        scope: query.get('scope') ?? '',
        expiresAt: Date.now() + CODE_TTL_MS,
        used: false,
      });
      target.searchParams.set('code', code);
    }
    if (state !== null) target.searchParams.set('state', state);
    return redirect(target);
  }

  /** Checks an authorization_code grant whose client credentials were already checked. */
  redeem(body: Record<string, string | undefined>): Redemption {
    if (!body.code)
      return oauthError(20001, 'invalid_request', 'The request is missing a required parameter: code.');
    const issued = this.codes.get(body.code);
    if (!issued)
      return oauthError(
        20003,
        'invalid_grant',
        'The authorization code is not found. Please note that an authorization code can only be used once.',
      );
    if (issued.used)
      return oauthError(
        20065,
        'invalid_grant',
        'The authorization code has been used. Please note that an authorization code can only be used once.',
      );
    // Any redemption attempt spends the code (RFC 6749 §4.1.2: used at most once).
    issued.used = true;
    if (issued.expiresAt <= Date.now())
      return oauthError(20004, 'invalid_grant', 'The authorization code has expired.');
    if (body.client_id !== issued.clientId)
      return oauthError(
        20024,
        'invalid_grant',
        'The provided authorization code or refresh token does not match the provided client ID.',
      );
    if (body.redirect_uri !== issued.redirectUri)
      return oauthError(
        20071,
        'invalid_grant',
        'The provided redirect URI does not match the one used during authorization.',
      );
    const verifier = body.code_verifier;
    if (issued.challenge === null) {
      if (verifier !== undefined)
        return oauthError(
          20049,
          'invalid_grant',
          'PKCE code challenge failed: code_verifier sent for a code issued without code_challenge.',
        );
    } else {
      if (!verifier || !VERIFIER.test(verifier))
        return oauthError(
          20049,
          'invalid_grant',
          'PKCE code challenge failed: code_verifier is missing or malformed.',
        );
      const expected =
        issued.method === 'S256'
          ? createHash('sha256').update(verifier, 'ascii').digest('base64url')
          : verifier;
      if (expected !== issued.challenge)
        return oauthError(20049, 'invalid_grant', 'PKCE code challenge failed.');
    }
    return { ok: true, scope: issued.scope };
  }
}
