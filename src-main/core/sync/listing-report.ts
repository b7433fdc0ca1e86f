/**
 * What a run learns beside the listed documents: items skipped on purpose (recorded with their
 * reason, never counted as failures) and parts that could not be listed (their stored documents
 * are kept: only a complete listing proves a document is gone). Also the memory of permanent
 * failures: a document that failed on its content (DOCUMENT_FAILED: encrypted, corrupt, scanned)
 * at the revision it still has is not fetched again, so a watched folder does not re-parse its
 * broken PDFs on every save elsewhere.
 */
import type { DocumentError, DocumentNote } from '@shared/models';
import type { DocumentRef, ListingReport } from '../connectors/connector';
import type { Db } from '../db/database';
import { QUARANTINE_REASON } from './crash-journal';

export interface ListingGap {
  prefix: string;
  reason: string;
  message: string;
}

export class ListingCollector implements ListingReport {
  readonly skippedItems: DocumentError[] = [];
  readonly gaps: ListingGap[] = [];

  skipped(item: { externalId: string; title: string; reason: string; message: string }): void {
    this.skippedItems.push({ ...item, code: 'DOCUMENT_FAILED', skipped: true });
  }

  incomplete(gap: ListingGap): void {
    this.gaps.push(gap);
  }

  /** True when `externalId` lies in a part the listing could not see. */
  covers(externalId: string): boolean {
    return this.gaps.some(
      (gap) => gap.prefix === '' || externalId === gap.prefix || externalId.startsWith(`${gap.prefix}/`),
    );
  }

  /** One line for the run's error: which parts could not be read, and that their documents stay. */
  gapSummary(): string | null {
    if (this.gaps.length === 0) return null;
    const names = this.gaps
      .slice(0, 3)
      .map((gap) => `${gap.prefix || '(root)'} (${gap.message})`)
      .join('; ');
    const more = this.gaps.length > 3 ? ` and ${this.gaps.length - 3} more` : '';
    return `Could not list ${names}${more}. Documents already indexed from there are kept until it can be read.`;
  }

  gapErrors(): DocumentError[] {
    return this.gaps.map((gap) => ({
      externalId: gap.prefix,
      title: gap.prefix || '(root)',
      code: 'PERMISSION_DENIED',
      reason: gap.reason,
      message: gap.message,
    }));
  }
}

/** Failures of the last finished run that may be carried over while their document's revision stays the same. */
export async function carriedFailures(db: Db, connectionId: string): Promise<Map<string, DocumentError>> {
  const row = (
    await db.query<{ errors: DocumentError[] }>(
      `SELECT errors FROM sync_runs WHERE connection_id = $1 AND status IN ('succeeded', 'partial', 'failed')
       ORDER BY id DESC LIMIT 1`,
      [connectionId],
    )
  ).rows[0];
  const carried = new Map<string, DocumentError>();
  for (const error of row?.errors ?? [])
    if (error.code === 'DOCUMENT_FAILED' && typeof error.revision === 'string')
      carried.set(error.externalId, error);
  return carried;
}

/**
 * The recorded failure still stands: same non-null revision as when it failed. A quarantined
 * document (it was in hand at two crashes: crash-journal.ts) stays set aside while its revision is
 * unchanged, also when its source gives none (recorded as ''): reading it is what killed Cairn.
 */
export function stillFailing(ref: DocumentRef, carried: Map<string, DocumentError>): DocumentError | null {
  const previous = carried.get(ref.externalId);
  if (!previous) return null;
  if (previous.reason === QUARANTINE_REASON)
    return previous.revision === (ref.revision ?? '') ? previous : null;
  return ref.revision !== null && previous.revision === ref.revision ? previous : null;
}

/**
 * Partial notes of the last finished run ("indexed, but the platform gave less"), by document: a
 * document that is not fetched again because it did not change still carries its note.
 */
export async function carriedPartialNotes(db: Db, connectionId: string): Promise<Map<string, DocumentNote>> {
  const row = (
    await db.query<{ notes: DocumentNote[] | null }>(
      `SELECT notes FROM sync_runs WHERE connection_id = $1 AND status IN ('succeeded', 'partial', 'failed')
       ORDER BY id DESC LIMIT 1`,
      [connectionId],
    )
  ).rows[0];
  const carried = new Map<string, DocumentNote>();
  for (const note of row?.notes ?? []) if (note.status === 'partial') carried.set(note.externalId, note);
  return carried;
}
