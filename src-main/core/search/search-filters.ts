/**
 * Search filters: checked once, then turned into the scope both index channels search within
 * (channel-scope.ts ChannelScope) and into the rule for live (direct-mode) sources.
 *
 * Connection and platform pick connections. Knowledge base, tag and modified date are facts about
 * documents: they become the list of documents that pass, read from `documents` (one indexed
 * query, never the chunks), so the channels rank only those and a top-k is never emptied by
 * filtering after ranking.
 */
import { PLATFORMS, type LiveFilterGap, type Platform, type SearchRequest } from '@shared/models';
import type { Db } from '../db/database';
import { CairnError } from '../errors';
import type { ChannelScope } from './channel-scope';

/** The request's filters, checked; null means "no filter" for that field. */
export interface CheckedFilters {
  /** From `filters.connectionIds`, or the request's older `connectionIds` (where [] means none). */
  connectionIds: string[] | null;
  /** As typed; named-filters.ts turns them into `connectionIds` before any channel runs. */
  connectionNames: string[] | null;
  platforms: Platform[] | null;
  knowledgeBases: string[] | null;
  /** As typed; named-filters.ts turns them into `knowledgeBases` before any channel runs. */
  knowledgeBaseNames: string[] | null;
  /** Lower-cased, without a leading "#". */
  tags: string[] | null;
  modifiedAfter: Date | null;
  modifiedBefore: Date | null;
}

/** Per field: more values than any UI offers is a caller's bug, not a search. */
const MAX_VALUES = 200;

// YYYY-MM-DD, optionally THH:MM[:SS[.fff]] with Z or an offset: what Date.parse reads the same everywhere.
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/;

function invalid(message: string): CairnError {
  return new CairnError('INVALID_ARGUMENT', message);
}

function stringList(value: unknown, field: string): string[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw invalid(`filters.${field} must be a list of strings.`);
  if (value.length > MAX_VALUES) throw invalid(`filters.${field} takes at most ${MAX_VALUES} values.`);
  const list = [...new Set((value as string[]).map((v) => v.trim()).filter((v) => v.length > 0))];
  return list.length > 0 ? list : null;
}

function instant(value: unknown, field: string): Date | null {
  if (value === undefined || value === null || value === '') return null;
  const text = typeof value === 'string' ? value.trim() : '';
  const time = ISO_DATE.test(text) ? Date.parse(text) : NaN;
  // Date.parse accepts 2026-02-30 as March 2: the calendar date must survive the round trip.
  if (Number.isNaN(time) || (text.length === 10 && new Date(time).toISOString().slice(0, 10) !== text))
    throw invalid(
      `filters.${field} must be an ISO 8601 date such as 2026-03-01 or 2026-03-01T09:00:00Z, not "${String(value).slice(0, 40)}".`,
    );
  return new Date(time);
}

/** The request's filters checked and normalised; INVALID_ARGUMENT with a plain reason otherwise. */
export function checkFilters(request: Pick<SearchRequest, 'connectionIds' | 'filters'>): CheckedFilters {
  const filters: unknown = request.filters ?? {};
  if (typeof filters !== 'object' || filters === null || Array.isArray(filters))
    throw invalid('filters must be an object.');
  const f = filters as Record<string, unknown>;
  const legacy = Array.isArray(request.connectionIds) ? request.connectionIds : null;
  const connectionIds = stringList(f.connectionIds, 'connectionIds') ?? legacy;
  const platforms = stringList(f.platforms, 'platforms');
  const unknown = platforms?.find((p) => !(PLATFORMS as readonly string[]).includes(p));
  if (unknown !== undefined)
    throw invalid(
      `filters.platforms: "${unknown.slice(0, 40)}" is not a platform (${PLATFORMS.join(', ')}).`,
    );
  const tags = stringList(f.tags, 'tags')
    ?.map((tag) => tag.replace(/^#/, '').toLowerCase())
    .filter((tag) => tag.length > 0);
  const modifiedAfter = instant(f.modifiedAfter, 'modifiedAfter');
  const modifiedBefore = instant(f.modifiedBefore, 'modifiedBefore');
  if (modifiedAfter && modifiedBefore && modifiedAfter >= modifiedBefore)
    throw invalid('filters.modifiedAfter must be earlier than filters.modifiedBefore.');
  return {
    connectionIds,
    connectionNames: stringList(f.connectionNames, 'connectionNames'),
    platforms: platforms as Platform[] | null,
    knowledgeBases: stringList(f.knowledgeBases, 'knowledgeBases'),
    knowledgeBaseNames: stringList(f.knowledgeBaseNames, 'knowledgeBaseNames'),
    tags: tags && tags.length > 0 ? [...new Set(tags)] : null,
    modifiedAfter,
    modifiedBefore,
  };
}

/** Whether a filter on documents (not just on connections) is set. */
export function filtersDocuments(filters: CheckedFilters): boolean {
  return (
    filters.knowledgeBases !== null ||
    filters.tags !== null ||
    filters.modifiedAfter !== null ||
    filters.modifiedBefore !== null
  );
}

/** Whether a connection passes the connection and platform filters. */
export function connectionPasses(
  filters: CheckedFilters,
  connection: { id: string; platform: string },
): boolean {
  return (
    (!filters.connectionIds || filters.connectionIds.includes(connection.id)) &&
    (!filters.platforms || (filters.platforms as string[]).includes(connection.platform))
  );
}

/**
 * The filters a live search cannot honour: its hits carry a knowledge base name (filtered by it,
 * see liveHitPasses) but no modified time and no tags.
 */
export function liveGaps(filters: CheckedFilters): LiveFilterGap[] {
  const gaps: LiveFilterGap[] = [];
  if (filters.modifiedAfter || filters.modifiedBefore) gaps.push('modified');
  if (filters.tags) gaps.push('tags');
  return gaps;
}

/** A live hit against the knowledge base filter, by the name its platform returned. */
export function liveHitPasses(filters: CheckedFilters, knowledgeBase: string): boolean {
  return !filters.knowledgeBases || filters.knowledgeBases.includes(knowledgeBase);
}

/**
 * SQL for "when this document was modified": the platform's or file's own time, else (a source
 * that reports none) when Cairn indexed it. Shared with the facets' date range.
 */
export const MODIFIED_AT = 'COALESCE(d.remote_updated_at, d.indexed_at)';

/**
 * The ids of the documents in `connectionIds` that pass the document filters, ascending.
 * One query over `documents` (tags through its metadata): cheap next to ranking, and a list the
 * channels can test membership in (keyword-scan.ts, vector-channel.ts).
 */
export async function documentsPassing(
  db: Pick<Db, 'query'>,
  filters: CheckedFilters,
  connectionIds: readonly string[],
): Promise<number[]> {
  const rows = await db.query<{ id: string | number }>(
    `SELECT d.id FROM documents d
     WHERE d.connection_id = ANY($1::text[])
       AND ($2::text[] IS NULL OR d.knowledge_base = ANY($2::text[]))
       AND ($3::timestamptz IS NULL OR ${MODIFIED_AT} >= $3::timestamptz)
       AND ($4::timestamptz IS NULL OR ${MODIFIED_AT} < $4::timestamptz)
       AND ($5::text[] IS NULL OR (jsonb_typeof(d.metadata -> 'tags') = 'array' AND EXISTS (
             SELECT 1 FROM jsonb_array_elements_text(d.metadata -> 'tags') AS t(tag)
             WHERE lower(ltrim(t.tag, '#')) = ANY($5::text[]))))
     ORDER BY d.id`,
    [
      connectionIds,
      filters.knowledgeBases,
      filters.modifiedAfter?.toISOString() ?? null,
      filters.modifiedBefore?.toISOString() ?? null,
      filters.tags,
    ],
  );
  return rows.rows.map((r) => Number(r.id));
}

/**
 * The index channels' scope for `filters`: null when every connection is searched from the index
 * with no document filter (HNSW works best unfiltered), else the rag-mode connections that pass
 * and, with a document filter, the documents that pass.
 */
export async function indexScope(
  db: Pick<Db, 'query'>,
  filters: CheckedFilters,
  connections: readonly { id: string; platform: string; mode: string }[],
): Promise<ChannelScope | null> {
  const ragIds = connections.filter((c) => c.mode === 'rag' && connectionPasses(filters, c)).map((c) => c.id);
  const documentIds =
    filtersDocuments(filters) && ragIds.length > 0 ? await documentsPassing(db, filters, ragIds) : null;
  if (ragIds.length === connections.length && !documentIds) return null;
  return { connectionIds: ragIds.length === connections.length ? null : ragIds, documentIds };
}
