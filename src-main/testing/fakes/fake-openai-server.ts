/**
 * A local stand-in for an OpenAI-compatible chat endpoint (POST /v1/chat/completions), for tests
 * and for trying Cairn without a provider: `npm run fake:openai`. It speaks the documented wire
 * format (https://platform.openai.com/docs/api-reference/chat-streaming): server-sent
 * `chat.completion.chunk` events, a usage chunk when stream_options.include_usage, then
 * `data: [DONE]`; errors as `{error:{message,type,param,code}}` with the real status codes.
 * Its answerer is deterministic: it quotes the best sentence of each numbered source it received
 * and cites it, so tests can check citations end to end.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { bestSpanIndex, queryTerms, splitSentences } from '../../core/chat/text-match';
import { countTokens } from '../../core/chat/tokens';

export type FakeBehaviour =
  /** Quotes the best sentence of up to 3 sources, each followed by its [n]. */
  | { kind: 'cite' }
  /** Like cite, then adds a sentence citing a source that was not given ([sources + 3], i.e. [7] for 4). */
  | { kind: 'cite-out-of-range' }
  /** An obedient model at its worst: repeats every message it received. */
  | { kind: 'echo' }
  | { kind: 'script'; text: string }
  /** Streams afterChunks pieces, then drops the connection ('destroy') or ends without finishing ('end'). */
  | { kind: 'cut'; afterChunks: number; how?: 'destroy' | 'end' }
  /** Streams afterChunks pieces, then goes silent (the connection stays open). */
  | { kind: 'stall'; afterChunks: number }
  /** Never sends the response headers. */
  | { kind: 'hang' }
  | { kind: 'rate-limit' }
  | { kind: 'context-length' }
  | { kind: 'server-error' };

export interface RecordedRequest {
  path: string;
  authorization: string | undefined;
  /** The body exactly as received. */
  raw: string;
  body: {
    model?: string;
    stream?: boolean;
    stream_options?: { include_usage?: boolean };
    messages?: { role: string; content: string }[];
  } | null;
}

export interface FakeOpenAiOptions {
  /** @default a random "sk-fake-..." key */
  apiKey?: string;
  /** @default ['fake-chat'] */
  models?: string[];
  /** Requests over this many prompt tokens get the context_length_exceeded error. @default 32768 */
  contextWindow?: number;
  /** Pause between streamed pieces. @default 0 */
  chunkDelayMs?: number;
  /** @default 0 (a free port) */
  port?: number;
}

export interface FakeOpenAiServer {
  baseUrl: string;
  apiKey: string;
  model: string;
  requests: RecordedRequest[];
  behaviour: FakeBehaviour;
  chunkDelayMs: number;
  contextWindow: number;
  close(): Promise<void>;
}

export async function startFakeOpenAiServer(options: FakeOpenAiOptions = {}): Promise<FakeOpenAiServer> {
  const models = options.models ?? ['fake-chat'];
  const open = new Set<ServerResponse>();
  const state: Omit<FakeOpenAiServer, 'baseUrl' | 'close'> = {
    apiKey: options.apiKey ?? `sk-fake-${randomBytes(12).toString('hex')}`,
    model: models[0]!,
    requests: [],
    behaviour: { kind: 'cite' },
    chunkDelayMs: options.chunkDelayMs ?? 0,
    contextWindow: options.contextWindow ?? 32_768,
  };
  const server: Server = createServer((req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    void handle(req, res).catch(() => res.destroy());
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = (req.url ?? '').split('?')[0]!;
    let body: RecordedRequest['body'] = null;
    try {
      body = raw ? (JSON.parse(raw) as RecordedRequest['body']) : null;
    } catch {
      body = null;
    }
    state.requests.push({ path, authorization: req.headers.authorization, raw, body });

    if (req.headers.authorization !== `Bearer ${state.apiKey}`) {
      const shown = (req.headers.authorization ?? '').replace(/^Bearer\s+/, '');
      return sendError(
        res,
        401,
        `Incorrect API key provided: ${shown.slice(0, 3)}****${shown.slice(-4)}.`,
        'invalid_request_error',
        'invalid_api_key',
      );
    }
    if (req.method === 'GET' && path === '/v1/models') {
      return sendJson(res, 200, {
        object: 'list',
        data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'cairn-fake' })),
      });
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions')
      return sendError(
        res,
        404,
        `Unknown request URL: ${req.method} ${path}.`,
        'invalid_request_error',
        'unknown_url',
      );
    if (!body || !Array.isArray(body.messages))
      return sendError(res, 400, 'Invalid JSON body: "messages" is required.', 'invalid_request_error', null);
    if (!body.model || !models.includes(body.model)) {
      return sendError(
        res,
        404,
        `The model \`${body.model}\` does not exist or you do not have access to it.`,
        'invalid_request_error',
        'model_not_found',
      );
    }
    const behaviour = state.behaviour;
    if (behaviour.kind === 'hang') return; // the test's timeout (or close()) ends it
    if (behaviour.kind === 'rate-limit') {
      return sendError(
        res,
        429,
        `Rate limit reached for ${body.model}: Limit 3, Used 3, Requested 1. Please try again in 20s.`,
        'requests',
        'rate_limit_exceeded',
      );
    }
    if (behaviour.kind === 'server-error')
      return sendError(
        res,
        500,
        'The server had an error while processing your request.',
        'server_error',
        null,
      );
    const promptTokens = body.messages.reduce((sum, m) => sum + countTokens(String(m.content ?? '')) + 4, 3);
    if (behaviour.kind === 'context-length' || promptTokens > state.contextWindow) {
      return sendError(
        res,
        400,
        `This model's maximum context length is ${state.contextWindow} tokens. However, your messages resulted in ${promptTokens} tokens. Please reduce the length of the messages.`,
        'invalid_request_error',
        'context_length_exceeded',
        'messages',
      );
    }

    const answer = answerFor(behaviour, body.messages);
    const usage = {
      prompt_tokens: promptTokens,
      completion_tokens: countTokens(answer),
      total_tokens: promptTokens + countTokens(answer),
    };
    const id = `chatcmpl-${randomBytes(8).toString('hex')}`;
    const created = Math.floor(Date.now() / 1000);
    if (!body.stream) {
      return sendJson(res, 200, {
        id,
        object: 'chat.completion',
        created,
        model: body.model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: answer, refusal: null },
            logprobs: null,
            finish_reason: 'stop',
          },
        ],
        usage,
        system_fingerprint: 'fp_cairn_fake',
      });
    }

    const includeUsage = body.stream_options?.include_usage === true;
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, system_fingerprint: 'fp_cairn_fake', choices, ...(includeUsage ? { usage: null } : {}), ...extra })}\n\n`;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    res.write(
      chunk([
        {
          index: 0,
          delta: { role: 'assistant', content: '', refusal: null },
          logprobs: null,
          finish_reason: null,
        },
      ]),
    );
    const pieces = splitIntoPieces(answer);
    for (const [index, piece] of pieces.entries()) {
      if (behaviour.kind === 'cut' && index === behaviour.afterChunks) {
        // Written pieces are flushed first, so the client really holds a partial answer.
        if (behaviour.how === 'end') res.end();
        else
          await new Promise<void>((resolve) => res.write('', () => resolve())).then(() =>
            res.socket?.destroy(),
          );
        return;
      }
      if (behaviour.kind === 'stall' && index === behaviour.afterChunks) return;
      if (state.chunkDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.chunkDelayMs));
      if (res.destroyed) return; // the client went away (cancel)
      res.write(chunk([{ index: 0, delta: { content: piece }, logprobs: null, finish_reason: null }]));
    }
    res.write(chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }]));
    if (includeUsage) res.write(chunk([], { usage }));
    res.end('data: [DONE]\n\n');
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const fake = state as FakeOpenAiServer;
  fake.baseUrl = `http://127.0.0.1:${port}/v1`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      for (const res of open) res.destroy();
      server.close(() => resolve());
    });
  return fake;
}

/** The deterministic answer for the messages received. */
export function answerFor(behaviour: FakeBehaviour, messages: { role: string; content: string }[]): string {
  if (behaviour.kind === 'script') return behaviour.text;
  if (behaviour.kind === 'echo') return messages.map((m) => `${m.role}: ${m.content}`).join('\n');
  const last = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const sources = [...last.matchAll(/<source n="(\d+)"[^>]*>\n([\s\S]*?)\n<\/source>/g)].map((m) => ({
    n: Number(m[1]),
    text: m[2]!,
  }));
  const question = /Question:\s*([\s\S]*)$/.exec(last)?.[1]?.trim() ?? last;
  if (sources.length === 0) return 'The provided sources do not answer this question.';
  const terms = queryTerms(question);
  const sentences = sources.slice(0, 3).map((source) => {
    const candidates = splitSentences(source.text.replace(/^…\s*|\s*…$/g, ''));
    const best = candidates[bestSpanIndex(candidates, terms)]?.text ?? source.text.slice(0, 120);
    return `${best.replace(/[.。]$/u, '')} [${source.n}].`;
  });
  if (behaviour.kind === 'cite-out-of-range')
    sentences.push(`This is also documented elsewhere [${sources.length + 3}].`);
  return sentences.join(' ');
}

/** Pieces of ~6 characters, so markers like "[12]" are sometimes split across chunks as in real streams. */
function splitIntoPieces(text: string): string[] {
  const chars = Array.from(text);
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += 6) pieces.push(chars.slice(i, i + 6).join(''));
  return pieces;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  type: string,
  code: string | null,
  param: string | null = null,
): void {
  sendJson(res, status, { error: { message, type, param, code } });
}

// `npm run fake:openai`: run standalone until Ctrl-C.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void startFakeOpenAiServer({
    port: Number(process.env.FAKE_OPENAI_PORT ?? 0),
    apiKey: process.env.FAKE_OPENAI_API_KEY || undefined,
  }).then((fake) => {
    process.stdout.write(
      `Fake OpenAI-compatible chat server\n  base URL: ${fake.baseUrl}\n  API key:  ${fake.apiKey}\n  model:    ${fake.model}\n\n` +
        `Try: CAIRN_CHAT_BASE_URL=${fake.baseUrl} CAIRN_CHAT_API_KEY=${fake.apiKey} CAIRN_CHAT_MODEL=${fake.model} cairn ask "..."\n`,
    );
    process.once('SIGINT', () => void fake.close().then(() => process.exit(0)));
  });
}
