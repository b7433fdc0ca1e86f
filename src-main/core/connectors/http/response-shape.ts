/**
 * Every platform answer is checked against the shape its official source documents (a zod schema
 * per endpoint, beside each connector) before a connector reads it. A shape Cairn does not expect
 * becomes one error, UNEXPECTED_RESPONSE, naming the platform, the endpoint and the field, instead
 * of a JavaScript message from deep inside a loop ("Spread syntax requires …", "results is not
 * iterable") or, worse, a document silently indexed empty.
 */
import type { z } from 'zod';
import { CairnError } from '../../errors';

export interface ResponseSource {
  /** The platform's name as users know it, e.g. "Yuque". */
  platform: string;
  /** The endpoint as documented, e.g. "GET /api/v2/repos/{book_id}/docs". Never a token or a signed query. */
  endpoint: string;
}

/** `data.items[0].node_token` from zod's path. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || '(the whole body)';
}

/** What the value at a failing path is, without quoting platform content at length. */
function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return value.length > 40 ? 'a long text' : `"${value}"`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let node = body;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

export function unexpectedResponse(source: ResponseSource, field: string, detail: string): CairnError {
  return new CairnError(
    'UNEXPECTED_RESPONSE',
    `${source.platform} answered ${source.endpoint} in a shape Cairn does not know: field "${field}" ${detail}.`,
    { details: { platform: source.platform, endpoint: source.endpoint, field } },
  );
}

/** Parses `body` with `schema`, or throws UNEXPECTED_RESPONSE naming the first field that does not fit. */
export function parseResponse<T>(schema: z.ZodType<T>, body: unknown, source: ResponseSource): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path ?? [];
  const found = describe(valueAt(body, path));
  throw unexpectedResponse(
    source,
    fieldPath(path),
    issue ? `is ${found} (${issue.message.replace(/\.$/, '')})` : 'does not fit',
  );
}
