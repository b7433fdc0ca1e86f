import { createHash } from 'node:crypto';

// C0 controls except TAB (09) and LF (0A); CR is turned into LF before this runs.
const C0_CONTROLS_EXCEPT_TAB_LF = /[\u0000-\u0008\u000B-\u001F]/g;
// A surrogate half without its partner is not text: UTF-8 cannot encode it.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** How many leading bytes looksBinary inspects (the same window git uses to guess binary files). */
export const BINARY_SNIFF_BYTES = 8192;
/** Share of control bytes (besides tab, newlines, form feed) above which a file counts as binary. */
const MAX_CONTROL_BYTE_RATIO = 0.1;

/**
 * The canonical form of a document's text: what we hash, chunk and index, so that a file saved
 * with CRLF line ends, a BOM, or decomposed accents is "unchanged" when only that differs.
 * Strips a leading BOM, turns CRLF and CR into LF, removes NUL and the other C0 control
 * characters except tab and newline, replaces lone surrogates with U+FFFD, applies Unicode NFC
 * (after removing controls, so composition sees the final neighbours), and trims whitespace at
 * the end. Leading whitespace and everything else are kept as they are.
 */
export function normalizeText(raw: string): string {
  const withoutBom = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  return withoutBom
    .replace(/\r\n?/g, '\n')
    .replace(C0_CONTROLS_EXCEPT_TAB_LF, '')
    .replace(LONE_SURROGATE, '\uFFFD')
    .normalize('NFC')
    .trimEnd();
}

/** SHA-256 (hex) of the UTF-8 bytes of already normalised text: the change detector for sync. */
export function contentHash(normalised: string): string {
  return createHash('sha256').update(normalised, 'utf8').digest('hex');
}

/**
 * Guesses whether file bytes are binary from the first 8 KB: any NUL byte, or more than 10 %
 * control bytes. UTF-16 text (full of NULs) therefore counts as binary; we read UTF-8 only.
 */
export function looksBinary(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, BINARY_SNIFF_BYTES);
  if (sample.length === 0) return false;
  let controls = 0;
  for (const byte of sample) {
    if (byte === 0) return true;
    // Tab, LF, VT, FF, CR and ESC (ANSI colour in logs) are normal in text files.
    if ((byte < 0x20 && !(byte >= 0x09 && byte <= 0x0d) && byte !== 0x1b) || byte === 0x7f) controls++;
  }
  return controls / sample.length > MAX_CONTROL_BYTE_RATIO;
}

export interface DecodedText {
  /** The decoded text, with U+FFFD where the bytes were not valid UTF-8 (a leading BOM is dropped). */
  text: string;
  /** True when some bytes were invalid UTF-8 and were replaced, so the caller can record it. */
  invalid: boolean;
}

/**
 * Decodes UTF-8 without ever throwing. A strict pass tells whether the bytes were valid; only
 * invalid input pays for the second, replacing pass.
 * See https://developer.mozilla.org/docs/Web/API/TextDecoder/fatal
 */
export function decodeUtf8(bytes: Uint8Array): DecodedText {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), invalid: false };
  } catch {
    return { text: new TextDecoder('utf-8').decode(bytes), invalid: true };
  }
}
