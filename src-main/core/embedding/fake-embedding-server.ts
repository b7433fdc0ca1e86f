/**
 * A real HTTP server on 127.0.0.1 that imitates `POST /v1/embeddings` of the OpenAI API
 * (https://platform.openai.com/docs/api-reference/embeddings/create) closely enough for the
 * official SDK: bearer auth with OpenAI's error JSON, 404 for unknown models, a DashScope-style
 * 400 over the batch cap, float or base64 encoding, `usage`, configurable latency and injected
 * faults. Vectors come from the built-in embedder's features, so search results stay meaningful.
 * Used by the embedder tests and by the benchmark (100 ms latency per request).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BuiltinEmbedder } from './builtin-embedder';

export interface FakeEmbeddingServerOptions {
  /** @default 'sk-fake-embedding-key' */
  apiKey?: string;
  /** Model name → native dimensions and whether the model honours a `dimensions` request. */
  models?: Record<string, { dimensions: number; honoursDimensions: boolean }>;
  /** Most inputs per request; more gets a 400. @default 2048 */
  maxBatchSize?: number;
  /** Added to every request before answering. @default 0 */
  latencyMs?: number;
}

export interface FakeEmbeddingStats {
  requests: number;
  /** Inputs embedded by successful requests. */
  inputs: number;
  inFlight: number;
  maxInFlight: number;
  /** Sizes of the input arrays received, in arrival order. */
  batchSizes: number[];
  /** The most recent request body, for checking parameters such as `text_type`. */
  lastBody: Record<string, unknown> | null;
}

export interface FakeEmbeddingServer {
  baseUrl: string;
  apiKey: string;
  stats: FakeEmbeddingStats;
  /** The next `count` requests fail with `status` (429 carries retry-after-ms when given). */
  failNext(count: number, status: 429 | 500 | 503, options?: { retryAfterMs?: number }): void;
  setLatency(ms: number): void;
  /**
   * Holds the next `count` requests until `count` are in flight at once (or `maxWaitMs` passed),
   * so a test sees a client's concurrency without depending on how fast it is scheduled.
   */
  holdUntilConcurrent(count: number, maxWaitMs?: number): void;
  close(): Promise<void>;
}

const DEFAULT_MODELS: Record<string, { dimensions: number; honoursDimensions: boolean }> = {
  'text-embedding-3-small': { dimensions: 1536, honoursDimensions: true },
  'text-embedding-v3': { dimensions: 1024, honoursDimensions: true },
  'bge-m3': { dimensions: 1024, honoursDimensions: false },
};

export async function startFakeEmbeddingServer(
  options: FakeEmbeddingServerOptions = {},
): Promise<FakeEmbeddingServer> {
  const apiKey = options.apiKey ?? 'sk-fake-embedding-key';
  const models = options.models ?? DEFAULT_MODELS;
  const maxBatchSize = options.maxBatchSize ?? 2048;
  let latencyMs = options.latencyMs ?? 0;
  const faults: { status: number; retryAfterMs?: number }[] = [];
  let hold: { remaining: number; count: number; release: Promise<void>; open: () => void } | null = null;
  const embedders = new Map<number, BuiltinEmbedder>();
  const stats: FakeEmbeddingStats = {
    requests: 0,
    inputs: 0,
    inFlight: 0,
    maxInFlight: 0,
    batchSizes: [],
    lastBody: null,
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    stats.requests++;
    if (hold && hold.remaining > 0) {
      hold.remaining--;
      if (stats.inFlight >= hold.count) hold.open();
      await hold.release;
    }
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    if (req.method !== 'POST' || !req.url?.replace(/\/+$/, '').endsWith('/embeddings'))
      return sendError(
        res,
        404,
        `Unknown request URL: ${req.method} ${req.url}`,
        'invalid_request_error',
        'unknown_url',
      );
    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      // OpenAI's 401 echoes a masked key; the client must not pass even that on.
      return sendError(
        res,
        401,
        `Incorrect API key provided: ${maskKey(req.headers.authorization)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
        'invalid_request_error',
        'invalid_api_key',
      );
    }
    const fault = faults.shift();
    if (fault) {
      const headers: Record<string, string> =
        fault.retryAfterMs !== undefined
          ? {
              'retry-after-ms': String(fault.retryAfterMs),
              'retry-after': String(Math.ceil(fault.retryAfterMs / 1000)),
            }
          : {};
      return fault.status === 429
        ? sendError(
            res,
            429,
            'Rate limit reached for requests. Please try again later.',
            'requests',
            'rate_limit_exceeded',
            headers,
          )
        : sendError(
            res,
            fault.status,
            'The server had an error while processing your request.',
            'server_error',
            null,
            headers,
          );
    }
    if (!isRecord(body))
      return sendError(
        res,
        400,
        'We could not parse the JSON body of your request.',
        'invalid_request_error',
        null,
      );
    stats.lastBody = body;
    const model = typeof body.model === 'string' ? models[body.model] : undefined;
    if (!model)
      return sendError(
        res,
        404,
        `The model \`${String(body.model)}\` does not exist or you do not have access to it.`,
        'invalid_request_error',
        'model_not_found',
      );
    const input = typeof body.input === 'string' ? [body.input] : body.input;
    if (!Array.isArray(input) || input.length === 0 || !input.every((item) => typeof item === 'string'))
      return sendError(
        res,
        400,
        "'input' must be a string or a non-empty array of strings.",
        'invalid_request_error',
        null,
      );
    stats.batchSizes.push(input.length);
    if (input.length > maxBatchSize)
      return sendError(
        res,
        400,
        `batch size is invalid, it should not be larger than ${maxBatchSize}.`,
        'invalid_request_error',
        'InvalidParameter',
      );
    const dimensions =
      model.honoursDimensions && typeof body.dimensions === 'number' ? body.dimensions : model.dimensions;
    let embedder = embedders.get(dimensions);
    if (!embedder) embedders.set(dimensions, (embedder = new BuiltinEmbedder(dimensions)));
    const base64 = body.encoding_format === 'base64';
    const data = (input as string[]).map((text, index) => {
      const vector = embedder.embedOne(text);
      return {
        object: 'embedding',
        index,
        embedding: base64
          ? Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64')
          : Array.from(vector),
      };
    });
    // A rough but deterministic token count (about four characters per token for English).
    const tokens = (input as string[]).reduce(
      (sum, text) => sum + Math.max(1, Math.ceil(text.length / 4)),
      0,
    );
    stats.inputs += input.length;
    sendJson(res, 200, {
      object: 'list',
      data,
      model: body.model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  }

  const server = createServer((req, res) => {
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    res.on('close', () => stats.inFlight--);
    handle(req, res).catch((error: unknown) =>
      sendError(res, 500, error instanceof Error ? error.message : String(error), 'server_error', null),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    apiKey,
    stats,
    failNext(count, status, faultOptions) {
      for (let i = 0; i < count; i++) faults.push({ status, retryAfterMs: faultOptions?.retryAfterMs });
    },
    setLatency(ms) {
      latencyMs = ms;
    },
    holdUntilConcurrent(count, maxWaitMs = 30_000) {
      let open = (): void => {};
      const release = new Promise<void>((resolve) => {
        open = resolve;
        setTimeout(resolve, maxWaitMs).unref();
      });
      hold = { remaining: count, count, release, open };
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        resolve(undefined);
      }
    });
    req.on('error', () => resolve(undefined));
  });
}

function sendJson(
  res: ServerResponse,
  status: number,
  payload: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(payload));
}

/** OpenAI's error envelope: {error: {message, type, param, code}}. */
function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  type: string,
  code: string | null,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, { error: { message, type, param: null, code } }, headers);
}

function maskKey(header: string | undefined): string {
  const key = header?.replace(/^Bearer\s+/i, '') ?? '';
  return key.length > 8 ? `${key.slice(0, 3)}*****${key.slice(-4)}` : '*****';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
