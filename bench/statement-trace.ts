/**
 * Where a search's time goes, measured on the app's own path: wraps a Db's query and exec in place
 * and sums, per search, the time of each kind of statement that HybridSearch runs
 * (index-retrieval.ts): the BM25 scans of the keyword fields, the index statement (vector channel,
 * rows), and the rest (a document's first chunk for one found by its outline alone, the search
 * catalogue, document filters, session settings). Searches must run one at a time for the sums to belong to one search.
 */
import type { Db } from '../src-main/core/db/database';

export const STATEMENT_KINDS = ['keyword scan', 'index statement', 'other'] as const;
export type StatementKind = (typeof STATEMENT_KINDS)[number];

export function statementKind(sql: string): StatementKind {
  const text = sql.replace(/\s+/g, ' ').trim();
  if (text.includes('to_bm25query(') && / ORDER BY \w+ <@> /.test(text)) return 'keyword scan';
  if (text.startsWith('WITH vec AS MATERIALIZED')) return 'index statement';
  return 'other';
}

export interface StatementTimes {
  /** Milliseconds per kind, summed over the search's statements. */
  ms: Record<StatementKind, number>;
  count: Record<StatementKind, number>;
}

function empty(): StatementTimes {
  const zero = () =>
    Object.fromEntries(STATEMENT_KINDS.map((kind) => [kind, 0])) as Record<StatementKind, number>;
  return { ms: zero(), count: zero() };
}

export class StatementTrace {
  private current: StatementTimes | null = null;
  private readonly original: Pick<Db, 'query' | 'exec'>;

  /** `clock` in milliseconds: wall time by default; process CPU time where the machine is shared. */
  constructor(
    private readonly db: Db,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.original = { query: db.query.bind(db), exec: db.exec.bind(db) };
    db.query = this.wrap(this.original.query);
    db.exec = this.wrap(this.original.exec);
  }

  /** Runs `work` (one search) and returns what its statements cost. */
  async measure<T>(work: () => Promise<T>): Promise<{ value: T; statements: StatementTimes }> {
    if (this.current) throw new Error('StatementTrace measures one search at a time.');
    const statements = empty();
    this.current = statements;
    try {
      return { value: await work(), statements };
    } finally {
      this.current = null;
    }
  }

  /** Puts the Db's own methods back. */
  restore(): void {
    this.db.query = this.original.query;
    this.db.exec = this.original.exec;
  }

  private wrap<F extends (sql: string, ...rest: never[]) => Promise<unknown>>(fn: F): F {
    return (async (sql: string, ...rest: never[]) => {
      const target = this.current;
      const started = this.clock();
      try {
        return await fn(sql, ...rest);
      } finally {
        if (target) {
          const kind = statementKind(sql);
          target.ms[kind] += this.clock() - started;
          target.count[kind] += 1;
        }
      }
    }) as F;
  }
}
