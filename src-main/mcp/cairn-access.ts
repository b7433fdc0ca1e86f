/**
 * How `cairn mcp` reaches Cairn over a whole AI-tool session (hours): each tool call goes to the
 * running instance (the app, `cairn serve`) when there is one; when nothing runs, this process
 * opens the data directory itself and serves it to other cairn commands meanwhile. It hands the
 * data directory over when the app starts (the app asks; the next call then goes to the app), and
 * lets it go after `idleMs` without calls, so an idle AI tool does not keep the index in memory.
 * An instance that goes away between calls is simply found again on the next one.
 */
import type { Result } from '@shared/errors';
import type { CairnSession } from '../instance/session';

export interface CairnAccessOptions {
  /** Finds the running instance or opens the data directory here (openCairnFromCli, role mcp). */
  connect: (hooks: { onYield: () => boolean }) => Promise<CairnSession>;
  /** A data directory held here is released after this long without calls and without clients. @default 600000 */
  idleMs?: number;
}

export class CairnAccess {
  private session: CairnSession | null = null;
  private opening: Promise<CairnSession> | null = null;
  /** A release under way: the next call waits for it, so it never reaches this process's closing socket. */
  private releasing: Promise<void> | null = null;
  private inFlight = 0;
  private releaseRequested = false;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private disposed = false;

  constructor(private readonly options: CairnAccessOptions) {}

  /**
   * Runs `work` against Cairn. When the instance went away during it (the app quit), the work is
   * tried once more against whoever answers now.
   */
  async call<T>(work: (cairn: CairnSession) => Promise<Result<T>>): Promise<Result<T>> {
    const first = await this.use(work);
    if (first.ok || first.error.code !== 'SOURCE_UNREACHABLE' || this.session?.alive() !== false)
      return first;
    this.session = null;
    return this.use(work);
  }

  /** The session to use now (for event subscriptions around a call). */
  async use<T>(work: (cairn: CairnSession) => Promise<T>): Promise<T> {
    if (this.disposed) throw new Error('cairn mcp is shutting down.');
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.inFlight++;
    try {
      return await work(await this.current());
    } finally {
      this.inFlight--;
      this.afterCall();
    }
  }

  /** Who answers right now, without opening anything (list_sources reports it). */
  answeredBy(): CairnSession['answeredBy'] | null {
    return this.session?.alive() ? this.session.answeredBy : null;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const session = this.session ?? (await this.opening?.catch(() => null)) ?? null;
    this.session = null;
    await this.releasing;
    await session?.dispose();
  }

  private async current(): Promise<CairnSession> {
    if (this.session?.alive()) return this.session;
    await this.releasing;
    this.session = null;
    this.opening ??= this.options
      .connect({ onYield: () => this.onYield() })
      .then((session) => {
        this.session = session;
        this.releaseRequested = false;
        return session;
      })
      .finally(() => (this.opening = null));
    return this.opening;
  }

  /** The app or `cairn serve` wants the data directory: let it go as soon as no call runs here. */
  private onYield(): boolean {
    this.releaseRequested = true;
    if (this.inFlight === 0) void this.release();
    return true;
  }

  private afterCall(): void {
    if (this.inFlight > 0 || !this.session) return;
    if (this.releaseRequested) return void this.release();
    if (this.session.answeredBy.via !== 'in-process') return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      // Other cairn commands connected to this process keep it: they would lose their instance.
      if (this.inFlight === 0 && this.session?.clientCount() === 0) void this.release();
      else this.afterCall();
    }, this.options.idleMs ?? 600_000);
    this.idleTimer.unref?.();
  }

  private release(): Promise<void> {
    const session = this.session;
    this.session = null;
    this.releaseRequested = false;
    this.releasing = (session?.dispose() ?? Promise.resolve()).finally(() => (this.releasing = null));
    return this.releasing;
  }
}
