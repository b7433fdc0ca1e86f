/**
 * One statement with one very large text parameter (a document's whole text: 18 MB for #25 item
 * 5's Chinese manual), sent as a single wire message that holds the text once.
 *
 * PGlite's `query()` frames a parameter through its protocol writer: the text is encoded into a
 * growing buffer, copied out, copied into the message writer's growing buffer and copied out
 * again: four ArrayBuffers of the text's UTF-8 size, three of them garbage before Postgres has
 * read a byte. V8 frees them only at its next major collection, so they were still resident while
 * PGlite's WebAssembly heap grew for the same text (its copy of the message, the datum, the row):
 * the document's write peaked there (docs/decisions/large-documents.md). Here the Parse, Bind,
 * Execute and Sync messages are laid out in one buffer sized in advance, and the text is encoded
 * straight into it.
 *
 * `execProtocol` is PGlite's public entry for wire messages; it runs in the session of the
 * transaction that calls it (PGlite runs one statement at a time, and a transaction holds the
 * database until it ends), so the statement is part of that transaction and an error in it rolls
 * the transaction back like any other.
 */
import type { Db } from '../db/database';
import { CairnError } from '../errors';

const encoder = new TextEncoder();

/** What runs the message: PGlite itself (a transaction's `tx` offers no wire access). */
export type WireSession = Pick<Db, 'execProtocol'>;

/**
 * Runs `sql` with `params` (text format; each a string) as one extended-protocol exchange;
 * returns the command tag Postgres answered ("UPDATE 1"). Errors come back as PGlite's own.
 */
export async function runWithLargeText(db: WireSession, sql: string, params: string[]): Promise<string> {
  const sqlBytes = Buffer.byteLength(sql, 'utf8');
  const paramBytes = params.map((param) => Buffer.byteLength(param, 'utf8'));
  // Parse: 'P' len "" sql\0 int16(0 types). Bind: 'B' len "" "" int16(0: all text) int16(n)
  // (int32 len, bytes)* int16(0: results in text). Execute: 'E' len "" int32(0: all rows). Sync.
  const parseLength = 4 + 1 + sqlBytes + 1 + 2;
  const bindLength = 4 + 1 + 1 + 2 + 2 + paramBytes.reduce((sum, bytes) => sum + 4 + bytes, 0) + 2;
  const executeLength = 4 + 1 + 4;
  const syncLength = 4;
  const message = new Uint8Array(4 + parseLength + bindLength + executeLength + syncLength);
  const view = new DataView(message.buffer);
  let at = 0;
  const byte = (value: number) => void view.setUint8(at++, value);
  const int16 = (value: number) => void (view.setInt16(at, value), (at += 2));
  const int32 = (value: number) => void (view.setInt32(at, value), (at += 4));
  const text = (value: string, bytes: number) => {
    const { written } = encoder.encodeInto(value, message.subarray(at, at + bytes));
    if (written !== bytes) throw new CairnError('INTERNAL', 'A statement parameter did not encode whole.');
    at += bytes;
  };

  byte(0x50); // 'P'
  int32(parseLength);
  byte(0);
  text(sql, sqlBytes);
  byte(0);
  int16(0);

  byte(0x42); // 'B'
  int32(bindLength);
  byte(0);
  byte(0);
  int16(0);
  int16(params.length);
  params.forEach((param, index) => {
    int32(paramBytes[index]!);
    text(param, paramBytes[index]!);
  });
  int16(0);

  byte(0x45); // 'E'
  int32(executeLength);
  byte(0);
  int32(0);

  byte(0x53); // 'S'
  int32(syncLength);

  // Written to disk when the transaction commits, as every statement of a transaction is.
  const result = await db.execProtocol(message, { syncToFs: false });
  const completed = result.messages.find((reply) => reply.name === 'commandComplete') as
    { text?: string } | undefined;
  if (!completed?.text) throw new CairnError('INTERNAL', 'The database did not complete a statement.');
  return completed.text;
}
