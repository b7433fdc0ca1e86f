/**
 * Telling a dead source from a failing document while a sync fetches. A platform whose server went
 * away fails every document the same way (nothing accepts the connection, or nothing answers in
 * time), and behind a platform's request pacing (Yuque: 80 a minute) trying them one by one takes
 * minutes per hundred. So connection failures to one origin are counted in a row: a few of them and
 * the source counts as unreachable, and the run stops (the pipeline defers what it did not reach).
 *
 * Attempts are documents' own requests and, after the first failure, a probe of the origin every
 * `probeIntervalMs` (can-connect.ts): it waits in no rate queue and spends no request quota, so the
 * verdict comes within seconds even when the pacing holds the next document back for most of a
 * minute. After a refused or dropped connection the probe is a TCP connect; after a request that got
 * no answer in time it is a bare `HEAD /` that must get one (3 s at most), because a server that
 * hangs still accepts connections. So with the defaults (3 in a row, probes of 3 s at most, 1 s
 * apart) the run stops at most 3 + 1 + 3 = 7 s after the first failure. A document that gets through
 * ends every streak; an origin that passes the probe ends the probing (documents' own failures still
 * count).
 */
import type { AppErrorData } from '@shared/errors';
import { answers, canConnect } from '../connectors/http/can-connect';
import { sleep } from '../connectors/http/platform-http';

/** A failed attempt that reached nothing: the connection was refused or dropped, the name did not resolve, or no answer came in time. */
export interface ConnectionFailure {
  /** The origin it could not reach (`http://127.0.0.1:8080`); '' when the error did not name one. */
  origin: string;
  error: AppErrorData;
}

/** The connection failure in an error, or null for any other failure (a refusal, a broken document, …). */
export function connectionFailure(error: AppErrorData): ConnectionFailure | null {
  if (error.code !== 'SOURCE_UNREACHABLE' && error.code !== 'TIMEOUT') return null;
  const origin = error.details?.['origin'];
  return { origin: typeof origin === 'string' ? origin : '', error };
}

/** Why the run stopped: the first failure of the streak, and how many attempts in a row failed. */
export interface UnreachableSource<T> {
  origin: string;
  /** `host:port` for messages; '' when the errors named no origin. */
  host: string;
  first: AppErrorData;
  attempts: number;
  /** What the documents of the streak were recorded as (their failures become deferrals). */
  items: T[];
}

export interface SourceWatchOptions<T> {
  /** Failed attempts in a row (documents and probes) after which the source counts as unreachable. @default 3 */
  threshold?: number;
  /** Between two probes of a failing origin. @default 1000 */
  probeIntervalMs?: number;
  /**
   * Whether the origin is there after `failure` (the streak's first). @default a TCP connect
   * (canConnect) after a refused or dropped connection, an answer to `HEAD /` (answers) after a
   * timeout; 3 s at most either way.
   */
  reachable?: (origin: string, signal: AbortSignal, failure: AppErrorData) => Promise<boolean>;
  /** Called once, when the source is judged unreachable. */
  onUnreachable(source: UnreachableSource<T>): void;
}

interface Streak<T> {
  origin: string;
  first: AppErrorData;
  attempts: number;
  items: T[];
}

export class SourceWatch<T> {
  private readonly streaks = new Map<string, Streak<T>>();
  private readonly probes = new Set<Promise<void>>();
  private readonly stopProbes = new AbortController();
  private verdict: UnreachableSource<T> | null = null;

  constructor(private readonly options: SourceWatchOptions<T>) {}

  /** The source was judged unreachable (the run stops), or null. */
  get unreachable(): UnreachableSource<T> | null {
    return this.verdict;
  }

  /** A document got through: whatever failed before, the source answers. */
  reached(): void {
    this.streaks.clear();
  }

  /** A document's attempt reached nothing; `item` is what its failure was recorded as. */
  failed(failure: ConnectionFailure, item: T): void {
    if (this.verdict) return;
    let streak = this.streaks.get(failure.origin);
    if (!streak) {
      streak = { origin: failure.origin, first: failure.error, attempts: 0, items: [] };
      this.streaks.set(failure.origin, streak);
    }
    streak.attempts += 1;
    streak.items.push(item);
    if (this.judge(streak)) return;
    // One prober per streak: it runs until the streak ends, the origin answers, or the verdict.
    if (streak.attempts === 1 && failure.origin) {
      const probing = this.probe(streak).finally(() => this.probes.delete(probing));
      this.probes.add(probing);
    }
  }

  /** Stops probing (the documents are done) and waits for the probes to end. */
  async dispose(): Promise<void> {
    this.stopProbes.abort();
    await Promise.all(this.probes);
  }

  private judge(streak: Streak<T>): boolean {
    if (streak.attempts < (this.options.threshold ?? 3)) return false;
    this.verdict = { ...streak, host: hostOf(streak.origin) };
    this.options.onUnreachable(this.verdict);
    return true;
  }

  private current(streak: Streak<T>): boolean {
    return !this.verdict && !this.stopProbes.signal.aborted && this.streaks.get(streak.origin) === streak;
  }

  private async probe(streak: Streak<T>): Promise<void> {
    const signal = this.stopProbes.signal;
    const reachable = this.options.reachable ?? defaultProbe;
    try {
      while (this.current(streak)) {
        const answered = await reachable(streak.origin, signal, streak.first);
        // The server is there: from here only documents' own failures count.
        if (!this.current(streak) || answered) return;
        streak.attempts += 1;
        if (this.judge(streak)) return;
        await sleep(this.options.probeIntervalMs ?? 1000, signal);
      }
    } catch {
      // Disposed while waiting between probes.
    }
  }
}

/** A hung server accepts connections, so after a timeout only an answer shows it is there. */
function defaultProbe(origin: string, signal: AbortSignal, failure: AppErrorData): Promise<boolean> {
  return failure.code === 'TIMEOUT' ? answers(origin, { signal }) : canConnect(origin, { signal });
}

function hostOf(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return '';
  }
}
