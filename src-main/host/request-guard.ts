/**
 * Who may talk to the headless host. It listens on 127.0.0.1 only, yet any web page the user
 * visits can still send requests to localhost, and DNS rebinding can make a hostile site look
 * same-origin. So every API request needs the per-run token, and the Host and Origin headers must
 * name this very server. See https://developer.mozilla.org/docs/Web/Security/Attacks/DNS_rebinding
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export function newHostToken(): string {
  return randomBytes(24).toString('base64url');
}

export function sameToken(expected: string, given: string | null | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token from `X-Cairn-Token`, `Authorization: Bearer …`, or `?token=` (EventSource cannot set headers). */
export function tokenOf(request: IncomingMessage, url: URL): string | null {
  const header = request.headers['x-cairn-token'];
  if (typeof header === 'string' && header) return header;
  const authorization = request.headers.authorization;
  if (authorization?.startsWith('Bearer ')) return authorization.slice('Bearer '.length).trim();
  return url.searchParams.get('token');
}

export type GuardVerdict = { ok: true } | { ok: false; status: 401 | 403; message: string };

/** Host and Origin must be this server; the browser's own cross-site marker is refused too. */
export function checkOrigin(request: IncomingMessage, port: number): GuardVerdict {
  const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  if (!allowedHosts.includes(request.headers.host ?? ''))
    return { ok: false, status: 403, message: 'Unexpected Host header.' };
  const origin = request.headers.origin;
  if (origin !== undefined && !allowedHosts.some((host) => origin === `http://${host}`))
    return { ok: false, status: 403, message: 'Requests from other origins are refused.' };
  if (request.headers['sec-fetch-site'] === 'cross-site')
    return { ok: false, status: 403, message: 'Cross-site requests are refused.' };
  return { ok: true };
}

export function checkToken(request: IncomingMessage, url: URL, token: string): GuardVerdict {
  return sameToken(token, tokenOf(request, url))
    ? { ok: true }
    : { ok: false, status: 401, message: 'Missing or wrong token: open the URL that `cairn serve` printed.' };
}
