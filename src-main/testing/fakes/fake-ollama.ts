/**
 * An Ollama server on 127.0.0.1, imitating what ollama/ollama docs/api.md and docs/openai.md
 * document for the calls Cairn makes:
 *
 * - `GET /api/tags` → `{models: [{name, model, modified_at, size, digest, details}]}`
 * - `POST /api/show {model}` → `{…, capabilities: ["embedding"] | ["completion", …]}`; 404 `{error}` for an unknown model
 * - `POST /api/embed {model, input: string | string[]}` → `{model, embeddings: [[…]], total_duration, load_duration, prompt_eval_count}`;
 *   a model without the embedding capability answers 400 `{error: "… does not support embeddings"}`
 * - `POST /v1/embeddings {model, input}` (OpenAI-compatible) → `{object: "list", data: [{object: "embedding", embedding, index}], model, usage}`
 *
 * Vectors are deterministic hashes of the text (not semantic). Not imitated: pulling, chat and
 * generate, streaming, keep_alive, options, truncate=false errors, server version quirks.
 * `npm run fake:ollama` starts it on a free port and prints its URL.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

export interface FakeOllamaModel {
  name: string;
  capabilities: string[];
  dimensions?: number;
}

export interface FakeOllama {
  url: string;
  requests: { method: string; path: string; model?: string }[];
  close(): Promise<void>;
}

export const DEFAULT_OLLAMA_MODELS: FakeOllamaModel[] = [
  { name: 'bge-m3:latest', capabilities: ['embedding'], dimensions: 1024 },
  { name: 'qwen3:0.6b', capabilities: ['completion', 'tools', 'thinking'] },
];

function vectorOf(text: string, dimensions: number): number[] {
  const out: number[] = [];
  for (let i = 0; out.length < dimensions; i++) {
    const digest = createHash('sha256').update(`${i}:${text}`).digest();
    for (let j = 0; j < digest.length && out.length < dimensions; j += 2)
      out.push(digest.readInt16LE(j) / 32768);
  }
  const norm = Math.hypot(...out) || 1;
  return out.map((value) => value / norm);
}

async function bodyOf(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
  } catch {
    return {};
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

export async function startFakeOllama(
  options: { models?: FakeOllamaModel[]; port?: number } = {},
): Promise<FakeOllama> {
  const models = options.models ?? DEFAULT_OLLAMA_MODELS;
  const requests: FakeOllama['requests'] = [];
  const find = (name: unknown) => models.find((m) => m.name === name || m.name === `${String(name)}:latest`);
  const server = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://ollama').pathname;
      const body = req.method === 'POST' ? await bodyOf(req) : {};
      requests.push({
        method: req.method ?? 'GET',
        path,
        ...(typeof body.model === 'string' ? { model: body.model } : {}),
      });
      if (req.method === 'GET' && path === '/api/tags')
        return json(res, 200, {
          models: models.map((m) => ({
            name: m.name,
            model: m.name,
            modified_at: '2026-11-01T10:00:00.000Z',
            size: 1_157_672_605,
            digest: createHash('sha256').update(m.name).digest('hex'),
            details: {
              format: 'gguf',
              family: 'bert',
              families: ['bert'],
              parameter_size: '567M',
              quantization_level: 'F16',
            },
          })),
        });
      const model = find(body.model);
      if (req.method === 'POST' && path === '/api/show') {
        if (!model) return json(res, 404, { error: `model '${String(body.model)}' not found` });
        return json(res, 200, {
          modelfile: '',
          parameters: '',
          template: '',
          details: {},
          model_info: {},
          capabilities: model.capabilities,
        });
      }
      if (req.method === 'POST' && (path === '/api/embed' || path === '/v1/embeddings')) {
        if (!model)
          return json(res, 404, { error: `model "${String(body.model)}" not found, try pulling it first` });
        if (!model.capabilities.includes('embedding'))
          return json(res, 400, { error: `"${model.name}" does not support embeddings` });
        const inputs = Array.isArray(body.input) ? body.input.map(String) : [String(body.input ?? '')];
        const vectors = inputs.map((text) => vectorOf(text, model.dimensions ?? 768));
        if (path === '/api/embed')
          return json(res, 200, {
            model: model.name,
            embeddings: vectors,
            total_duration: 14143917,
            load_duration: 1019500,
            prompt_eval_count: inputs.length * 8,
          });
        return json(res, 200, {
          object: 'list',
          data: vectors.map((embedding, index) => ({ object: 'embedding', embedding, index })),
          model: model.name,
          usage: { prompt_tokens: inputs.length * 8, total_tokens: inputs.length * 8 },
        });
      }
      json(res, 404, { error: 'not found' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // Ollama's own port when it is free, so the app's one-click offer finds it as it would the real one.
  void startFakeOllama({ port: Number(process.env.PORT ?? 11434) }).then((fake) => {
    process.stdout.write(
      `Fake Ollama listening at ${fake.url} with ${DEFAULT_OLLAMA_MODELS.map((m) => m.name).join(', ')}.\n` +
        'Settings → Embeddings shows the one-click Ollama choice when this answers on 127.0.0.1:11434.\nPress Ctrl-C to stop.\n',
    );
    const stop = () => void fake.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
