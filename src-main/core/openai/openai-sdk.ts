/**
 * The openai SDK, loaded on first use. Only a remote embedder or a chat model talks to it, yet a
 * static import cost every `cairn` command (and the app's start) its module load
 * (docs/decisions/cli-startup.md). Callers await `loadOpenAiSdk()` before their first request;
 * error classification after a failed request can rely on it having loaded.
 */
export type OpenAiSdk = typeof import('openai');

let loading: Promise<OpenAiSdk> | null = null;

export function loadOpenAiSdk(): Promise<OpenAiSdk> {
  loading ??= import('openai').catch((error: unknown) => {
    loading = null; // retried on the next request instead of failing every later one
    throw error;
  });
  return loading;
}
