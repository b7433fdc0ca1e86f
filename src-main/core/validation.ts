/** Turns untrusted input into typed values with zod, failing as INVALID_ARGUMENT with a readable message. */
import type { z } from 'zod';
import { CairnError } from './errors';

export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  // Issue messages describe the expected shape; they never echo the value, so a mistyped secret stays out.
  const problems = result.error.issues.map((issue) => {
    const at = issue.path.map(String).join('.');
    // Our own messages are sentences; the list gets one final full stop.
    const message = issue.message.replace(/\.$/, '');
    return at ? `${at}: ${message}` : message;
  });
  throw new CairnError('INVALID_ARGUMENT', `Invalid ${what}: ${problems.join('; ')}.`);
}
