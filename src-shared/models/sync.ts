/** Sync runs: their progress, counters and per-document outcomes. */
import type { AppErrorData } from '../errors';

export type SyncPhase = 'listing' | 'detecting' | 'fetching' | 'embedding' | 'writing' | 'deleting' | 'done';

export interface SyncCounters {
  seen: number;
  added: number;
  updated: number;
  unchanged: number;
  deleted: number;
  failed: number;
  /** Listed documents the platform's request limit kept this run from fetching: the next sync takes them. Never failures. */
  deferred: number;
  /**
   * Seen but deliberately not indexed: kinds Cairn cannot turn into text (e.g. Feishu mind notes,
   * counted per kind in the run's `skippedKinds`) and files left out on purpose (a link leaving a
   * local folder, a scanned PDF, a file over the size limit; listed in `errors` with a `reason`).
   */
  skipped: number;
  /** Chunks written (their keyword index at once; their vectors, with a semantic model, follow in the background). */
  chunksWritten: number;
}

export interface DocumentError {
  externalId: string;
  title: string;
  code: string;
  message: string;
  /**
   * A finer, stable reason the UI groups and translates (e.g. `folder.no-text`: "3 PDFs have no
   * text: scanned images"; `folder.link-outside`; `listing.incomplete`). Absent for plain failures.
   */
  reason?: string;
  /** True when the document was skipped on purpose rather than failed (counted in `counters.skipped`). */
  skipped?: boolean;
  /** Values the translated reason names (e.g. `{ scopes: 'sheets:spreadsheet:read' }`). */
  params?: Record<string, string>;
  /** The listed revision this failure happened at: an unchanged file is not tried again until it changes. */
  revision?: string | null;
}

/** Documents of one run that failed the same way (one code, reason and sentence): one line with a count. */
export interface DocumentErrorGroup {
  code: string;
  message: string;
  reason?: string;
  params?: Record<string, string>;
  skipped?: boolean;
  count: number;
  /** The first few documents' titles (the rest are counted). */
  titles: string[];
}

/** A listed item a run did not index, or indexed with a caveat, that is not a failure: what it is and why. */
export interface DocumentNote {
  externalId: string;
  title: string;
  /**
   * deferred: the platform said stop (request limit or quota) before it was fetched; skipped: Cairn
   * cannot read its kind; partial: indexed, but the platform gave less than the document holds.
   */
  status: 'deferred' | 'skipped' | 'partial';
  /** The platform's kind of item, e.g. "sheet", "mindnote", "slides", "file"; set for skipped items. */
  kind?: string;
  /** The English sentence saying why. */
  reason: string;
  /** A stable code the UI groups and translates (partial notes: `feishu.bitable-no-rows`, …). */
  code?: string;
  /** Values the translated sentence names. */
  params?: Record<string, string>;
}

export interface SyncProgress {
  connectionId: string;
  runId: number;
  phase: SyncPhase;
  documentsDone: number;
  documentsTotal: number;
  chunksWritten: number;
  errors: number;
}

export type SyncRunStatus = 'running' | 'succeeded' | 'partial' | 'failed' | 'cancelled';

export interface SyncRunView {
  id: number;
  connectionId: string;
  status: SyncRunStatus;
  startedAt: string;
  finishedAt: string | null;
  counters: SyncCounters;
  errors: DocumentError[];
  /** Deferred and skipped items (bounded like `errors`). */
  notes: DocumentNote[];
  /** Skipped items per kind, e.g. `{ mindnote: 3, slides: 1 }` (all of them, unbounded counts). */
  skippedKinds: Record<string, number>;
  error: AppErrorData | null;
}
