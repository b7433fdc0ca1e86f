import type { AppErrorData, ErrorCode, Result } from '@shared/errors';

/**
 * The one error type core code throws for expected failures. It carries a closed code so the
 * boundary (IPC, HTTP host, CLI) can turn it into data without guessing from messages.
 */
export class CairnError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options?: { cause?: unknown; details?: Record<string, unknown> },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CairnError';
    this.code = code;
    this.details = options?.details;
  }
}

export function isAbortError(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === 'AbortError' || (error instanceof CairnError && error.code === 'CANCELLED'))
  );
}

/** Turns anything thrown into boundary data. Unexpected errors keep only a generic message outward. */
export function toErrorData(error: unknown): AppErrorData {
  if (error instanceof CairnError) {
    return error.details
      ? { code: error.code, message: error.message, details: error.details }
      : { code: error.code, message: error.message };
  }
  if (isAbortError(error)) return { code: 'CANCELLED', message: 'Cancelled.' };
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'INTERNAL', message };
}

export async function toResult<T>(work: () => Promise<T>): Promise<Result<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return { ok: false, error: toErrorData(error) };
  }
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CairnError('CANCELLED', 'Cancelled.');
}
