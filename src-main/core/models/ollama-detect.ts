/**
 * Finds an Ollama server on this machine and the embedding models it has pulled, for the
 * one-click choice in settings. Ollama's API (ollama/ollama docs/api.md):
 *
 * - `GET /api/tags` lists pulled models (`models[].name`); it does not say which ones embed.
 * - `POST /api/show {model}` answers `capabilities`, which has "embedding" for embedding models
 *   (types/model/capability.go). Older servers send no capabilities: then a model counts when
 *   `/api/embed` answers it.
 * - `POST /api/embed {model, input}` → `{embeddings: [[…]]}`: one probe gives the vector width.
 *
 * Short timeouts: settings must not hang on a machine without Ollama.
 */
import type { OllamaDetection } from '@shared/models';

export const OLLAMA_BASE_URL = 'http://127.0.0.1:11434';

async function post(url: string, body: unknown, timeoutMs: number): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.json();
}

export interface OllamaDetectOptions {
  /** @default OLLAMA_BASE_URL */
  baseUrl?: string;
  /** For the listing and each model's details; a probe embedding gets ten times this. @default 1500 */
  timeoutMs?: number;
}

export async function detectOllama(options: OllamaDetectOptions = {}): Promise<OllamaDetection> {
  const baseUrl = (options.baseUrl ?? OLLAMA_BASE_URL).replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 1500;
  let names: string[];
  try {
    const response = await fetch(`${baseUrl}/api/tags`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return { baseUrl, reachable: false, models: [] };
    const tags = (await response.json()) as { models?: { name?: unknown; model?: unknown }[] };
    names = (tags.models ?? []).map((m) => String(m.name ?? m.model ?? '')).filter(Boolean);
  } catch {
    return { baseUrl, reachable: false, models: [] };
  }
  const models: OllamaDetection['models'] = [];
  for (const name of names) {
    try {
      const shown = (await post(`${baseUrl}/api/show`, { model: name }, timeoutMs)) as {
        capabilities?: unknown;
      };
      const capabilities = Array.isArray(shown.capabilities) ? shown.capabilities : null;
      if (capabilities && !capabilities.includes('embedding')) continue;
      // Loading a model can take a while the first time: the probe gets longer than the listing.
      const embedded = (await post(
        `${baseUrl}/api/embed`,
        { model: name, input: 'ping' },
        timeoutMs * 10,
      )) as {
        embeddings?: number[][];
      };
      const dimensions = embedded.embeddings?.[0]?.length ?? 0;
      if (dimensions > 0) models.push({ name, dimensions });
    } catch {
      // Not an embedding model (an old server refuses /api/embed for it), or it failed to load: not offered.
    }
  }
  return { baseUrl, reachable: true, models };
}
