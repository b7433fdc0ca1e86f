/**
 * Failures leave core as data that the UI shows. Their messages can quote what a platform or a
 * provider said, and some quote the credential they were sent, so every failed Result passes
 * through the same redactor as the log lines before it crosses the boundary.
 */
import { API_METHODS, type ApiDomain, type CairnApi } from '@shared/contract';
import type { Result } from '@shared/errors';

type AnyMethod = (input?: unknown) => Promise<Result<unknown>>;

export function redactFailures(api: CairnApi, redact: (text: string) => string): CairnApi {
  const wrapped: Record<string, Record<string, AnyMethod>> = {};
  for (const domain of Object.keys(API_METHODS) as ApiDomain[]) {
    const implementation = api[domain] as unknown as Record<string, AnyMethod>;
    wrapped[domain] = {};
    for (const method of API_METHODS[domain]) {
      wrapped[domain][method] = async (input) => {
        const result = await implementation[method]!.call(implementation, input);
        return result.ok
          ? result
          : { ok: false, error: { ...result.error, message: redact(result.error.message) } };
      };
    }
  }
  return wrapped as unknown as CairnApi;
}
