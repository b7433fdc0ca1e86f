/** Cairn's errors as MCP tool errors: thrown inside a tool, the SDK returns them as `isError` results. */
import type { Result } from '@shared/errors';

export function unwrapOrThrow<T>(result: Result<T>, what: string): T {
  if (result.ok) return result.value;
  // Core's messages are already redacted of secrets (redactFailures) and name what failed.
  throw new Error(`Cairn could not ${what}: ${result.error.message} (${result.error.code})`);
}
