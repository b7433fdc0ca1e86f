/**
 * "Why not this document?": one document followed through the stages of a search that just ran
 * (hybrid-search.ts SearchStages), in pipeline order: its connection and the filters, the keyword
 * channel (the query's analysed words it holds, the channel's depth),
 * the vector channel (its vectors, the similarity floor, the depth, the tail rule), the query's
 * operators, the per-document cap, and the top-k cut.
 *
 * Ranks and the stage that removed it are read from the run itself, never ranked again here, so
 * an explanation follows every rule change; only what a run does not keep about a document
 * outside its lists is measured for it: its best BM25 score and its nearest similarity
 * (scored the way the channels score), and which query words its keyword text holds.
 * explain-document.test.ts checks that a shown document's explained ranks are the ones shown.
 */
import type { DocumentExplanation, DocumentTitle, ExplainReason, Platform } from '@shared/models';
import { summarizeExplanation } from './explain-sentences';
import type { Db } from '../db/database';
import { CairnError } from '../errors';
import { spaceTable, vectorCast } from '../index/embedding-spaces';
import { BM25_INDEX } from '../index/keyword-index';
import { toVectorLiteral } from '../index/vector-literal';
import { queryTerms } from '../text/query-terms';
import { CHANNEL_DEPTH } from './channel-scope';
import type { SearchStages } from './hybrid-search';
import { chunkIdOf } from './result-keys';
import { connectionPasses, documentsPassing, type CheckedFilters } from './search-filters';

/** The document an explanation is about, as stored. */
export interface ExplainTarget {
  id: number;
  title: string;
  connectionId: string;
  platform: Platform;
  knowledgeBase: string;
  url: string | null;
}

interface TargetRow {
  id: string | number;
  title: string;
  connection_id: string;
  platform: Platform;
  knowledge_base: string;
  url: string | null;
}

const TARGET_COLUMNS = `d.id, d.title, d.connection_id, c.platform, d.knowledge_base, d.url`;

function toTarget(row: TargetRow): ExplainTarget {
  return {
    id: Number(row.id),
    title: row.title,
    connectionId: row.connection_id,
    platform: row.platform,
    knowledgeBase: row.knowledge_base,
    url: row.url,
  };
}

/** Titles that hold `text` (case aside), exact ones first, then those starting with it, then shortest. */
export async function findDocumentTitles(
  db: Pick<Db, 'query'>,
  text: string,
  limit = 10,
): Promise<DocumentTitle[]> {
  const needle = text.replace(/\s+/g, ' ').trim();
  if (!needle) return [];
  const rows = await db.query<TargetRow>(
    `SELECT ${TARGET_COLUMNS} FROM documents d JOIN connections c ON c.id = d.connection_id
     WHERE strpos(lower(d.title), lower($1)) > 0
     ORDER BY lower(d.title) = lower($1) DESC, strpos(lower(d.title), lower($1)) = 1 DESC,
              length(d.title), d.title, d.id
     LIMIT $2`,
    [needle, Math.min(50, Math.max(1, Math.trunc(limit)))],
  );
  return rows.rows.map((row) => ({
    id: Number(row.id),
    title: row.title,
    knowledgeBase: row.knowledge_base,
    platform: row.platform,
    connectionId: row.connection_id,
  }));
}

/**
 * The document a person or an AI tool names: an id (42, "42", "d42"), else a title exactly (case
 * aside), else the one title that contains the text. NOT_FOUND naming what was asked, or
 * INVALID_ARGUMENT listing the titles when several match.
 */
export async function resolveExplainTarget(db: Pick<Db, 'query'>, named: unknown): Promise<ExplainTarget> {
  const text = typeof named === 'number' ? String(named) : typeof named === 'string' ? named.trim() : '';
  if (!text) throw new CairnError('INVALID_ARGUMENT', 'Name the document to explain: its title or its id.');
  const id = /^d?(\d{1,15})$/i.exec(text)?.[1];
  if (id) {
    const byId = await db.query<TargetRow>(
      `SELECT ${TARGET_COLUMNS} FROM documents d JOIN connections c ON c.id = d.connection_id WHERE d.id = $1`,
      [Number(id)],
    );
    if (byId.rows[0]) return toTarget(byId.rows[0]);
  }
  const exact = await db.query<TargetRow>(
    `SELECT ${TARGET_COLUMNS} FROM documents d JOIN connections c ON c.id = d.connection_id
     WHERE lower(d.title) = lower($1) ORDER BY d.id LIMIT 6`,
    [text],
  );
  const found =
    exact.rows.length > 0
      ? exact.rows.map(toTarget)
      : (
          await db.query<TargetRow>(
            `SELECT ${TARGET_COLUMNS} FROM documents d JOIN connections c ON c.id = d.connection_id
             WHERE strpos(lower(d.title), lower($1)) > 0 ORDER BY length(d.title), d.id LIMIT 6`,
            [text],
          )
        ).rows.map(toTarget);
  if (found.length === 1) return found[0]!;
  if (found.length === 0)
    throw new CairnError('NOT_FOUND', `No indexed document is titled or numbered "${text.slice(0, 100)}".`);
  const listed = found
    .slice(0, 5)
    .map((doc) => `"${doc.title}" (d${doc.id})`)
    .join(', ');
  throw new CairnError(
    'INVALID_ARGUMENT',
    `${found.length > 5 ? 'More than 5' : found.length} documents match "${text.slice(0, 100)}": ${listed}. Name one by its id.`,
  );
}

interface DocumentChunk {
  id: number;
  headingPath: string;
  text: string;
  charStart: number;
  charEnd: number;
  searchText: string;
}

export async function explainDocument(
  db: Pick<Db, 'query'>,
  stages: SearchStages,
  target: ExplainTarget,
  options: { maxHitsPerDocument: number },
): Promise<DocumentExplanation> {
  const chunks = (
    await db.query<{
      id: string | number;
      heading_path: string;
      content: string;
      char_start: number;
      char_end: number;
      search_text: string;
    }>(
      `SELECT id, heading_path, content, char_start, char_end, search_text FROM chunks
       WHERE document_id = $1 ORDER BY ord`,
      [target.id],
    )
  ).rows.map((row): DocumentChunk => ({
    id: Number(row.id),
    headingPath: row.heading_path,
    text: row.content,
    charStart: row.char_start,
    charEnd: row.char_end,
    searchText: row.search_text,
  }));
  const mine = new Set(chunks.map((chunk) => chunk.id));
  const isMine = (key: string) => mine.has(Number(chunkIdOf(key)));
  const connection = stages.connections.find((c) => c.id === target.connectionId);
  const connectionName = stages.names.get(target.connectionId) ?? target.connectionId;
  const { index, query } = stages;
  const reasons: ExplainReason[] = [];

  // What the document's keyword text holds of the query's analysed words.
  const terms = query.keywordText.split(' ').filter((term) => term.length > 0);
  const padded = chunks.map((chunk) => ` ${chunk.searchText} `);
  const typedOf = typedWords(query.text);
  const words = terms.map((word) => {
    const typed = typedOf(word);
    return { word, ...(typed ? { typed } : {}), found: padded.some((text) => text.includes(` ${word} `)) };
  });

  const keywordRank = bestRank(index.keyword, mine);
  const vectorRank = bestRank(index.vector, mine);
  const [keywordScores, lastKeyword, similarities, lastVector] = await Promise.all([
    bm25Scores(db, query.keywordText, [...mine]),
    bm25Scores(db, query.keywordText, index.keyword.slice(-1)),
    vectorSimilarities(db, stages, [...mine]),
    vectorSimilarities(db, stages, index.vector.slice(-1)),
  ]);
  const keywordScore = maxOf(keywordScores);
  const similarity = maxOf(similarities);

  // 1. Where it may be searched at all: its connection, then each filter on its own.
  if (chunks.length === 0) reasons.push({ kind: 'not-indexed' });
  if (connection?.mode === 'direct') reasons.push({ kind: 'connection-live', connectionName });
  if (stages.filters) reasons.push(...(await filterReasons(db, stages.filters, target, connection)));
  const searchable = reasons.length === 0;

  // 2. The channels, when it was searched.
  if (searchable) {
    if (keywordRank === null)
      reasons.push(
        words.some((w) => w.found)
          ? { kind: 'keyword-depth', depth: CHANNEL_DEPTH }
          : { kind: 'no-query-words' },
      );
    if (stages.vectorSkip) reasons.push({ kind: 'no-vector', why: stages.vectorSkip });
    else if (similarities.size === 0) reasons.push({ kind: 'no-vector', why: 'not-embedded' });
    else if (vectorRank === null)
      reasons.push(
        similarity !== null && stages.minSimilarity !== null && similarity < stages.minSimilarity
          ? { kind: 'similarity-floor', similarity, floor: stages.minSimilarity }
          : { kind: 'vector-depth', depth: CHANNEL_DEPTH },
      );
    else if (stages.vectorTailDropped) reasons.push({ kind: 'vector-tail' });
  }

  // 3. After fusion: the query's operators, the per-document cap, the top-k cut.
  const fusedMine = stages.fused.filter((item) => isMine(item.key));
  const passing = fusedMine.filter((item) => !stages.dropped.has(item.key));
  if (fusedMine.length > 0 && passing.length === 0) {
    const drop = stages.dropped.get(fusedMine[0]!.key)!;
    reasons.push(
      drop.kind === 'excluded'
        ? { kind: 'excluded', word: drop.word }
        : { kind: 'phrase-missing', phrase: drop.phrase },
    );
  }
  const capped =
    stages.ranked.filter((item) => isMine(item.key)).length -
    stages.capped.filter((item) => isMine(item.key)).length;
  if (capped > 0)
    reasons.push({ kind: 'per-document-cap', dropped: capped, max: options.maxHitsPerDocument });
  const documentKey = `document:${target.id}`;
  const at = stages.documentOrder.indexOf(documentKey);
  const rank = at === -1 ? null : at + 1;
  const shownAt = stages.response.documents.findIndex(
    (document) => document.best.documentId === target.id && document.best.source === 'index',
  );
  const shownRank = shownAt === -1 ? null : shownAt + 1;
  if (rank !== null && shownRank === null)
    reasons.push(
      rank > stages.k
        ? { kind: 'top-k', rank, k: stages.k, total: stages.documentOrder.length }
        : { kind: 'made-room-for-live' },
    );

  const bestItem = stages.ordered.find((item) => isMine(item.key)) ?? fusedMine[0];
  const best =
    (bestItem && chunks.find((chunk) => chunk.id === chunkIdOf(bestItem.key))) ??
    nearestChunk(chunks, padded, terms, keywordScores, similarities);
  const explanation: Omit<DocumentExplanation, 'summary'> = {
    query: query.text,
    document: { ...target, connectionName, chunks: chunks.length },
    outcome: shownRank !== null ? 'shown' : rank !== null ? 'ranked-lower' : 'not-found',
    shownRank,
    rank,
    k: stages.k,
    words,
    keyword: {
      rank: keywordRank,
      depth: CHANNEL_DEPTH,
      score: keywordScore,
      lastKeptScore: maxOf(lastKeyword),
    },
    vector: {
      ran: stages.vectorSkip === null,
      rank: vectorRank,
      depth: CHANNEL_DEPTH,
      score: similarity,
      lastKeptScore: maxOf(lastVector),
    },
    fusedScore: stages.ranked.find((item) => isMine(item.key))?.score ?? null,
    reasons,
    bestPassage: best
      ? {
          chunkId: best.id,
          headingPath: best.headingPath,
          text: best.text,
          charStart: best.charStart,
          charEnd: best.charEnd,
        }
      : null,
  };
  return { ...explanation, summary: summarizeExplanation(explanation) };
}

/**
 * The word as typed for an analysed one, when the analyser changed it (a stem: "windows" →
 * "window", "xyzzy" → "xyzzi"): each typed word analysed on its own by the query's analyser.
 */
function typedWords(text: string): (word: string) => string | undefined {
  const typedOf = new Map<string, string>();
  for (const typed of text.normalize('NFKC').toLowerCase().split(/\s+/)) {
    const clean = typed.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    if (!clean) continue;
    for (const token of queryTerms(clean).content) if (!typedOf.has(token)) typedOf.set(token, clean);
  }
  return (word) => {
    const typed = typedOf.get(word);
    return typed && typed !== word ? typed : undefined;
  };
}

function bestRank(ranking: readonly number[], mine: ReadonlySet<number>): number | null {
  const at = ranking.findIndex((id) => mine.has(id));
  return at === -1 ? null : at + 1;
}

function maxOf(scores: ReadonlyMap<number, number>): number | null {
  return scores.size === 0 ? null : Math.max(...scores.values());
}

/** The filters that leave the document out, each tested alone with the search's own filter code. */
async function filterReasons(
  db: Pick<Db, 'query'>,
  filters: CheckedFilters,
  target: ExplainTarget,
  connection: { id: string; platform: string } | undefined,
): Promise<ExplainReason[]> {
  const reasons: ExplainReason[] = [];
  const only = (patch: Partial<CheckedFilters>): CheckedFilters => ({
    connectionIds: null,
    connectionNames: null,
    platforms: null,
    knowledgeBases: null,
    knowledgeBaseNames: null,
    tags: null,
    modifiedAfter: null,
    modifiedBefore: null,
    ...patch,
  });
  const subject = connection ?? { id: target.connectionId, platform: target.platform };
  if (filters.connectionIds && !connectionPasses(only({ connectionIds: filters.connectionIds }), subject))
    reasons.push({ kind: 'filter', filter: 'connection', value: filters.connectionIds.join(', ') });
  if (filters.platforms && !connectionPasses(only({ platforms: filters.platforms }), subject))
    reasons.push({ kind: 'filter', filter: 'platform', value: filters.platforms.join(', ') });
  const documentFilters: [ExplainReason & { kind: 'filter' }, Partial<CheckedFilters> | null][] = [
    [
      { kind: 'filter', filter: 'knowledgeBase', value: filters.knowledgeBases?.join(', ') ?? '' },
      filters.knowledgeBases ? { knowledgeBases: filters.knowledgeBases } : null,
    ],
    [
      { kind: 'filter', filter: 'tag', value: filters.tags?.join(', ') ?? '' },
      filters.tags ? { tags: filters.tags } : null,
    ],
    [
      {
        kind: 'filter',
        filter: 'modified',
        value: [
          filters.modifiedAfter ? `from ${filters.modifiedAfter.toISOString().slice(0, 10)}` : '',
          filters.modifiedBefore ? `before ${filters.modifiedBefore.toISOString().slice(0, 10)}` : '',
        ]
          .filter(Boolean)
          .join(' '),
      },
      filters.modifiedAfter || filters.modifiedBefore
        ? { modifiedAfter: filters.modifiedAfter, modifiedBefore: filters.modifiedBefore }
        : null,
    ],
  ];
  for (const [reason, patch] of documentFilters) {
    if (!patch) continue;
    const passing = await documentsPassing(db, only(patch), [target.connectionId]);
    if (!passing.includes(target.id)) reasons.push(reason);
  }
  return reasons;
}

/** BM25 of these chunks for the keyword text (the keyword channel's text field), by chunk id. */
async function bm25Scores(
  db: Pick<Db, 'query'>,
  keywordText: string,
  chunkIds: readonly number[],
): Promise<Map<number, number>> {
  if (!keywordText.trim() || chunkIds.length === 0) return new Map();
  // Scored one row at a time (outside the index scan): fine for one document's chunks.
  const rows = await db.query<{ id: string | number; score: number }>(
    `SELECT id, -(search_text <@> to_bm25query($1, '${BM25_INDEX}')) AS score FROM chunks
     WHERE id = ANY($2::bigint[])`,
    [keywordText, chunkIds],
  );
  return new Map(rows.rows.filter((row) => row.score > 0).map((row) => [Number(row.id), row.score]));
}

/** Cosine similarity of these chunks to the query in the space the vector channel ranked in. */
async function vectorSimilarities(
  db: Pick<Db, 'query'>,
  stages: SearchStages,
  chunkIds: readonly number[],
): Promise<Map<number, number>> {
  const space = stages.index.vectorSpace;
  if (!space || !stages.queryVector || chunkIds.length === 0) return new Map();
  const rows = await db.query<{ chunk_id: string | number; similarity: number }>(
    `SELECT chunk_id, 1 - (embedding <=> $1::${vectorCast(space)}) AS similarity FROM ${spaceTable(space)}
     WHERE chunk_id = ANY($2::bigint[])`,
    [toVectorLiteral(stages.queryVector), chunkIds],
  );
  return new Map(rows.rows.map((row) => [Number(row.chunk_id), Number(row.similarity)]));
}

/** The passage to show when none ranked: most query words, then best BM25, then nearest in meaning. */
function nearestChunk(
  chunks: readonly DocumentChunk[],
  padded: readonly string[],
  terms: readonly string[],
  keywordScores: ReadonlyMap<number, number>,
  similarities: ReadonlyMap<number, number>,
): DocumentChunk | undefined {
  let best: { chunk: DocumentChunk; key: [number, number, number] } | undefined;
  chunks.forEach((chunk, i) => {
    const held = terms.filter((term) => padded[i]!.includes(` ${term} `)).length;
    const key: [number, number, number] = [
      held,
      keywordScores.get(chunk.id) ?? 0,
      similarities.get(chunk.id) ?? -1,
    ];
    if (
      !best ||
      key[0] > best.key[0] ||
      (key[0] === best.key[0] && (key[1] > best.key[1] || (key[1] === best.key[1] && key[2] > best.key[2])))
    )
      best = { chunk, key };
  });
  return best?.chunk;
}
