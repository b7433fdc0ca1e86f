/**
 * STAND-IN for src-main/core/text/normalize.ts (being written by another helper): the same two
 * exports, so the sync engine switches by changing one import. Minimal on purpose: what must hold
 * for hashing and for Postgres, nothing cosmetic.
 */
import { createHash } from 'node:crypto';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text as it is hashed, chunked and stored: NFC (so the same characters hash the same whatever
 * the platform's encoding), LF line ends, no BOM, no NUL or other C0 controls (Postgres text
 * rejects NUL), lone surrogates replaced (they cannot be encoded as UTF-8), no trailing spaces.
 */
export function normalizeText(text: string): string {
  return text
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '')
    .normalize('NFC')
    .replace(/[ \t]+$/gm, '')
    .trim();
}

/** SHA-256 hex of the normalised text: the truth of "did this document change". */
export function contentHash(normalized: string): string {
  return createHash('sha256').update(normalized, 'utf8').digest('hex');
}
