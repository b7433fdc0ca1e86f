/**
 * PKCE (RFC 7636) and the `state` value for an OAuth authorization-code flow from a native app
 * (RFC 8252 §6, §8.1). S256 only: `plain` would hand the verifier to anyone who sees the
 * authorize URL. node:crypto is all this needs; see docs/decisions/feishu-user-sign-in.md for why
 * no OAuth client library is used.
 */
import { createHash, randomBytes } from 'node:crypto';

export interface PkcePair {
  /** 43 characters of base64url (32 random bytes): inside RFC 7636's 43..128 and its alphabet. */
  verifier: string;
  challenge: string;
  method: 'S256';
}

export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export function createPkcePair(): PkcePair {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: s256Challenge(verifier), method: 'S256' };
}

/** An unguessable value the callback must echo, so a forged redirect cannot inject a code (CSRF). */
export function createOAuthState(): string {
  return randomBytes(24).toString('base64url');
}
