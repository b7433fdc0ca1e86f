/**
 * The first phase of a sync: list the source. A listing that breaks off still lets the run index
 * what it gave, but deletes nothing; neither does one that went on without a part it could not
 * list (a gap). Items the source leaves out on purpose are recorded with their reason.
 */
import type { AppErrorData } from '@shared/errors';
import type { Connector, DocumentRef, ListingReport } from '../connectors/connector';
import { isAbortError, throwIfAborted } from '../errors';
import type { Logger } from '../logging/logger';
import { ListingCollector } from './listing-report';
import { cleanTitle, type RunRecord } from './run-record';

export interface Listing {
  /** The listed documents, each once, in the order listed. */
  refs: DocumentRef[];
  ids: Set<string>;
  /** The run was cancelled while listing (`refs` holds what came before). */
  cancelled: boolean;
  /** The listing broke off (the call failed), or parts of it could not be read: the run's error. */
  error: AppErrorData | null;
  /** The listing broke off: nothing is proven gone. */
  broken: boolean;
  /**
   * Gaps of a platform listing (a failed call for a part of it), with the call's error: nothing is
   * deleted. A folder's unreadable parts are in `collector`, by prefix.
   */
  gaps: AppErrorData[];
  collector: ListingCollector;
}

export interface ListingContext {
  connectionId: string;
  connector: Connector;
  signal?: AbortSignal;
  record: RunRecord;
  logger: Logger;
}

export async function listSource(context: ListingContext): Promise<Listing> {
  const { connector, signal, record } = context;
  const started = performance.now();
  record.progress('listing', 0, 0);
  const listing: Listing = {
    refs: [],
    ids: new Set(),
    cancelled: false,
    error: null,
    broken: false,
    gaps: [],
    collector: new ListingCollector(),
  };
  try {
    for await (const ref of connector.list(signal, listingReport(context, listing))) {
      throwIfAborted(signal);
      if (
        !ref ||
        typeof ref.externalId !== 'string' ||
        ref.externalId.length === 0 ||
        listing.ids.has(ref.externalId)
      )
        continue;
      listing.ids.add(ref.externalId);
      listing.refs.push(ref);
      if (listing.refs.length % 200 === 0) record.progress('listing', 0, listing.refs.length);
    }
  } catch (error) {
    if (isAbortError(error) || signal?.aborted) return { ...listing, cancelled: true };
    listing.error = record.errorData(error);
    listing.broken = true;
    context.logger.warn('listing failed; nothing will be deleted this run', {
      connectionId: context.connectionId,
      error: listing.error,
    });
  }
  record.timings.listMs = Math.round(performance.now() - started);
  record.counters.seen = listing.refs.length;
  if (listing.error && listing.refs.length === 0) return listing;
  // Skipped on purpose: recorded with the reason, not failures. Unlisted parts: a partial run.
  const { collector } = listing;
  for (const item of collector.skippedItems) record.errors.push(item);
  record.counters.skipped += collector.skippedItems.length;
  record.errors.push(...collector.gapErrors());
  const gapSummary = collector.gapSummary();
  if (gapSummary && !listing.error) listing.error = { code: 'PERMISSION_DENIED', message: gapSummary };
  return listing;
}

/** What the connector tells while it lists: items it leaves out, parts it could not list. */
function listingReport(context: ListingContext, listing: Listing): ListingReport {
  const { record, connectionId } = context;
  return {
    skipped: (item) => {
      // A file left out on purpose is listed with its reason (errors); a kind of item with no
      // text API is counted per kind and noted.
      if (item.kind === undefined) return listing.collector.skipped(item);
      record.counters.skipped += 1;
      record.skippedKinds[item.kind] = (record.skippedKinds[item.kind] ?? 0) + 1;
      record.note({
        externalId: item.externalId,
        title: cleanTitle(item.title, item.externalId),
        status: 'skipped',
        kind: item.kind,
        reason: item.message,
      });
    },
    incomplete: (gap) => {
      if (gap.error === undefined) return listing.collector.incomplete(gap);
      if (isAbortError(gap.error)) return;
      const data = record.errorData(gap.error);
      listing.gaps.push({
        ...data,
        message: `${gap.message}: ${data.message} Everything else was synced; nothing was deleted this time.`,
      });
      context.logger.warn('part of the source could not be listed', {
        connectionId,
        what: gap.message,
        error: data,
      });
    },
  };
}
