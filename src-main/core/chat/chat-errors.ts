/**
 * Turns what the openai SDK throws into Cairn's closed error codes, with messages a person can act
 * on. Provider messages are kept (they often name the problem) but redacted of the key.
 * Status meanings: https://platform.openai.com/docs/guides/error-codes
 */
import type { APIError } from 'openai';
import { CairnError } from '../errors';
import { SecretRedactor } from '../logging/logger';
import type { OpenAiSdk } from '../openai/openai-sdk';

export interface ChatErrorContext {
  model: string;
  baseUrl: string;
  apiKey: string;
}

const CONTEXT_LENGTH_PATTERN =
  /context[_ ]length|maximum context|context window|too many tokens|input length|too long/i;

/** `sdk`: the loaded openai module, whose error classes the failure is matched against. */
export function toChatError(error: unknown, context: ChatErrorContext, sdk: OpenAiSdk): CairnError {
  if (error instanceof CairnError) return error;
  const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } = sdk;
  const redactor = new SecretRedactor();
  redactor.register(context.apiKey);
  const providerSays = (e: APIError) =>
    redactor
      .redact(String((e.error as { message?: unknown } | undefined)?.message ?? e.message))
      .slice(0, 300);

  if (error instanceof APIUserAbortError) return new CairnError('CANCELLED', 'Cancelled.');
  if (error instanceof APIConnectionTimeoutError) {
    return new CairnError('TIMEOUT', `The chat model at ${context.baseUrl} did not respond in time.`, {
      cause: error,
    });
  }
  if (error instanceof APIConnectionError) {
    return new CairnError(
      'SOURCE_UNREACHABLE',
      `Cannot reach the chat model at ${context.baseUrl} (offline, or the server is not running).`,
      { cause: error },
    );
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const status = error.status;
    if (status === 401)
      return new CairnError(
        'AUTH_INVALID',
        `The chat API key was rejected (401): ${providerSays(error)}. Check the key in Settings → Chat.`,
      );
    if (status === 403)
      return new CairnError(
        'PERMISSION_DENIED',
        `The chat API key may not use model "${context.model}" (403): ${providerSays(error)}`,
      );
    if (status === 404) {
      return new CairnError(
        'MODEL_NOT_FOUND',
        `Model "${context.model}" was not found at ${context.baseUrl} (404). Check the model name and base URL in Settings → Chat.`,
      );
    }
    if (status === 429) {
      if (error.code === 'insufficient_quota')
        return new CairnError(
          'QUOTA_EXCEEDED',
          `The chat account is out of quota (429): ${providerSays(error)}`,
        );
      return new CairnError(
        'RATE_LIMITED',
        `The chat provider is rate limiting requests (429). Wait a moment and ask again.`,
      );
    }
    if (status === 408 || status === 504)
      return new CairnError('TIMEOUT', `The chat model timed out (${status}).`);
    if (
      status === 400 &&
      (error.code === 'context_length_exceeded' || CONTEXT_LENGTH_PATTERN.test(providerSays(error)))
    ) {
      return new CairnError(
        'CONTEXT_TOO_LONG',
        `The question and its sources are longer than model "${context.model}" accepts: ${providerSays(error)}`,
      );
    }
    return new CairnError(
      'SOURCE_ERROR',
      `The chat model returned an error (${status}): ${providerSays(error)}`,
    );
  }
  if (error instanceof APIError) {
    // An error object inside the stream (status undefined): the provider failed mid-answer.
    return new CairnError('SOURCE_ERROR', `The chat model failed mid-answer: ${providerSays(error)}`);
  }
  // undici reports a dropped socket mid-body as TypeError('terminated') with a cause.
  return new CairnError('SOURCE_UNREACHABLE', `The connection to the chat model dropped mid-answer.`, {
    cause: error,
  });
}
