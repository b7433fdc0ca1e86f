import type { Logger } from '../logging/logger';

export type Dispose = () => Promise<void> | void;

/**
 * What an instance started, to be stopped in reverse order (STYLE.md §9): each wiring step pushes
 * the disposer of what it starts the moment it starts it, so the database, opened first, closes
 * last, and a failure half-way through stops what had started.
 */
export class Disposers {
  private readonly stack: Dispose[] = [];
  private logger: Logger | null = null;

  /** Where a failing disposer is logged (the instance's logger, once there is one). @default stderr */
  logTo(logger: Logger): void {
    this.logger = logger;
  }

  push(dispose: Dispose): void {
    this.stack.push(dispose);
  }

  /** Runs every disposer, newest first; a failing one is logged and the rest still run. */
  async run(): Promise<void> {
    const logger = this.logger;
    for (const dispose of this.stack.splice(0).reverse()) {
      try {
        await dispose();
      } catch (error) {
        if (logger) logger.error('dispose failed', { error });
        else process.stderr.write(`dispose failed: ${String(error)}\n`);
      }
    }
  }
}
