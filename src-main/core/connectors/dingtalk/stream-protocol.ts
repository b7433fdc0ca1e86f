/**
 * DingTalk Stream mode, the wire format (no connection state here). Sources:
 * - protocol page: https://open-dingtalk.github.io/developerpedia/docs/learn/stream/protocol
 *   (official doc: https://open.dingtalk.com/document/direction/stream-mode-protocol-access-description)
 * - official SDKs: open-dingtalk/dingtalk-stream-sdk-nodejs src/client.ts, -python dingtalk_stream/stream.py,
 *   -go client/client.go.
 *
 * 1. POST {api}/v1.0/gateway/connections/open, JSON {clientId, clientSecret, subscriptions, ua} with
 *    `Accept: application/json` (without it the gateway answers XML, per the Node SDK) → {endpoint, ticket}.
 *    The ticket is valid 90 s and opens exactly one connection.
 * 2. WebSocket to `${endpoint}?ticket=${ticket}`.
 * 3. Frames down: {specVersion, type: SYSTEM|EVENT|CALLBACK, headers:{messageId, topic, contentType, time,
 *    eventType?, eventId?, …}, data: "<json string>"}. Replies up: {code, headers:{contentType, messageId},
 *    message, data: "<json string>"}.
 */
import { CairnError } from '../../errors';

export const GATEWAY_PATH = '/v1.0/gateway/connections/open';

/** `*` is the only EVENT topic the gateway accepts: which events arrive is ticked in the developer console. */
export const EVENT_SUBSCRIPTIONS = [{ type: 'EVENT', topic: '*' }] as const;

export interface StreamFrame {
  specVersion?: string;
  type: 'SYSTEM' | 'EVENT' | 'CALLBACK' | string;
  headers: Record<string, string | undefined> & { messageId?: string; topic?: string; eventType?: string };
  data: string;
}

export interface StreamAck {
  code: number;
  headers: Record<string, string | undefined>;
  message: string;
  data: string;
}

/** A downstream frame, or null for anything that is not one (never throws on bad input). */
export function parseFrame(raw: string): StreamFrame | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  const frame = value as Partial<StreamFrame>;
  if (typeof frame.type !== 'string' || frame.headers === null || typeof frame.headers !== 'object')
    return null;
  return {
    specVersion: frame.specVersion,
    type: frame.type,
    headers: frame.headers,
    data: typeof frame.data === 'string' ? frame.data : '',
  };
}

/** SYSTEM `ping`: answered at once with the same headers and data (data carries the server's `opaque`). */
export function pingReply(frame: StreamFrame): StreamAck {
  return { code: 200, headers: frame.headers, message: 'OK', data: frame.data };
}

/**
 * EVENT ack. SUCCESS means consumed; LATER means "not consumed, push it again", so an event Cairn
 * does not use stays available to the app's other Stream consumers. Unacked events are redelivered.
 */
export function eventAck(frame: StreamFrame, status: 'SUCCESS' | 'LATER', message: string): StreamAck {
  return {
    code: 200,
    headers: { contentType: 'application/json', messageId: frame.headers.messageId },
    message: 'OK',
    data: JSON.stringify({ status, message }),
  };
}

/** CALLBACK topics are not subscribed; the protocol reserves 404 for "topic not handled here". */
export function notHandledReply(frame: StreamFrame): StreamAck {
  return {
    code: 404,
    headers: { contentType: 'application/json', messageId: frame.headers.messageId },
    message: 'topic not handled',
    data: JSON.stringify({ response: null }),
  };
}

export interface GatewayTicket {
  endpoint: string;
  ticket: string;
}

export interface OpenGatewayOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  ua: string;
  signal?: AbortSignal;
  /** @default 10000 */
  timeoutMs?: number;
  /** @default globalThis.fetch */
  fetchImpl?: typeof fetch;
}

/** What the connection loop should do with a gateway failure. */
export type GatewayFailure = CairnError & { retry: boolean };

function failure(
  code: ConstructorParameters<typeof CairnError>[0],
  message: string,
  retry: boolean,
): GatewayFailure {
  return Object.assign(new CairnError(code, message), { retry });
}

/**
 * Asks the gateway for a WebSocket endpoint and a single-use ticket. The error body on
 * api.dingtalk.com is {code, message, requestid}; the exact codes this route returns for a wrong
 * secret are not documented, so any 400/401/403 that is not throttling counts as refused credentials.
 */
export async function openGateway(options: OpenGatewayOptions): Promise<GatewayTicket> {
  const url = `${options.baseUrl.replace(/\/+$/, '')}${GATEWAY_PATH}`;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 10_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const body = {
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    subscriptions: EVENT_SUBSCRIPTIONS,
    ua: options.ua,
  };
  let response: Response;
  try {
    response = await (options.fetchImpl ?? fetch)(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal,
      // The body holds the client secret: a 307/308 would send it on to wherever the answer points.
      redirect: 'manual',
    });
  } catch (error) {
    if (options.signal?.aborted) throw new CairnError('CANCELLED', 'Cancelled.');
    const host = new URL(url).host;
    if (timeout.aborted)
      throw failure(
        'TIMEOUT',
        `The DingTalk Stream gateway at ${host} did not answer within ${(options.timeoutMs ?? 10_000) / 1000} s.`,
        true,
      );
    const reason =
      error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    throw failure(
      'SOURCE_UNREACHABLE',
      `Cannot reach the DingTalk Stream gateway at ${host} (${reason}).`,
      true,
    );
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    throw failure(
      'SOURCE_ERROR',
      `The DingTalk Stream gateway at ${new URL(url).host} answered with a redirect (HTTP ${response.status}); Cairn does not send the app secret on to another address. Check the API base URL.`,
      false,
    );
  }
  const text = await response.text().catch(() => '');
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Leave json empty: the status decides.
  }
  const code = typeof json.code === 'string' ? json.code : '';
  const detail = `${code || `HTTP ${response.status}`}${typeof json.message === 'string' ? `: ${json.message}` : ''}${typeof json.requestid === 'string' ? ` (requestid ${json.requestid})` : ''}`;
  if (response.ok) {
    const { endpoint, ticket } = json;
    if (typeof endpoint === 'string' && /^wss?:\/\//.test(endpoint) && typeof ticket === 'string' && ticket)
      return { endpoint, ticket };
    throw failure(
      'SOURCE_ERROR',
      'The DingTalk Stream gateway answered without an endpoint and ticket.',
      true,
    );
  }
  if (response.status === 429 || code.includes('QpsLimit'))
    throw failure('RATE_LIMITED', `The DingTalk Stream gateway is throttling this app (${detail}).`, true);
  if ([400, 401, 403].includes(response.status)) {
    throw failure(
      'AUTH_INVALID',
      `DingTalk refused the app key or app secret for Stream mode (${detail}). Check them, and that the app is allowed to use Stream mode.`,
      false,
    );
  }
  if (response.status === 404)
    throw failure(
      'SOURCE_ERROR',
      `No DingTalk Stream gateway at ${new URL(url).host} (${detail}). Check the API base URL.`,
      false,
    );
  throw failure('SOURCE_ERROR', `The DingTalk Stream gateway failed (${detail}).`, true);
}

/** The URL to dial. Never logged: the ticket in it is a credential. */
export function streamUrl(ticket: GatewayTicket): string {
  const url = new URL(ticket.endpoint);
  url.searchParams.set('ticket', ticket.ticket);
  return url.toString();
}
