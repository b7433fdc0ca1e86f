/**
 * Reads an API request's body with a size limit. An oversized body gets an answer (413) rather
 * than a reset connection: most HTTP clients, fetch included, write the whole body before they
 * read the answer, so destroying the socket mid-upload surfaces as "socket hang up" with no
 * explanation. The excess is read and thrown away, up to a hard ceiling past which the socket is
 * dropped after all.
 */
import type { IncomingMessage } from 'node:http';

export type BodyResult = { kind: 'ok'; text: string } | { kind: 'too-large' };

/** Past this many bytes the excess is no longer drained: the socket is destroyed. @default 16 × limit */
const DRAIN_FACTOR = 16;

export function readBody(request: IncomingMessage, limit: number): Promise<BodyResult> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length']);
    const parts: Buffer[] = [];
    let size = 0;
    let tooLarge = Number.isFinite(declared) && declared > limit;
    request.on('data', (part: Buffer) => {
      size += part.length;
      if (size > limit) tooLarge = true;
      if (!tooLarge) parts.push(part);
      else if (size > limit * DRAIN_FACTOR) {
        // Not worth reading on: answer now and let the connection go.
        resolve({ kind: 'too-large' });
        request.destroy();
      }
    });
    request.on('end', () =>
      resolve(tooLarge ? { kind: 'too-large' } : { kind: 'ok', text: Buffer.concat(parts).toString('utf8') }),
    );
    request.on('error', reject);
  });
}
