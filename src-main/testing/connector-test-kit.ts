/** Small helpers the connector tests share. */
import type { Connector, DocumentRef } from '../core/connectors/connector';
import { CairnError } from '../core/errors';
import { createLogger, type Logger } from '../core/logging/logger';

/** Every reference a connector lists, in listing order. */
export async function listAll(
  connector: Pick<Connector, 'list'>,
  signal?: AbortSignal,
): Promise<DocumentRef[]> {
  const refs: DocumentRef[] = [];
  for await (const ref of connector.list(signal)) refs.push(ref);
  return refs;
}

/** The CairnError a piece of work rejects with; anything else (or success) fails the test. */
export async function failure(work: Promise<unknown>): Promise<CairnError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof CairnError)) throw new Error(`expected a CairnError, got ${String(error)}`);
  return error;
}

/**
 * A logger that keeps the waits PlatformHttp announces before each retry ("transient platform
 * error; retrying", field waitMs): what a test reads instead of timing a request, which a loaded
 * machine makes meaningless.
 */
export function retryWaitsLogger(): { logger: Logger; waits: () => number[] } {
  const lines: string[] = [];
  const logger = createLogger({ sink: (line) => void lines.push(line), level: 'warn' });
  return {
    logger,
    waits: () =>
      lines
        .filter((line) => line.includes('transient platform error; retrying'))
        .map((line) => Number(/"waitMs":(\d+)/.exec(line)?.[1] ?? NaN)),
  };
}
