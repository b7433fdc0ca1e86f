/**
 * Test doubles for the index, search and sync tests: a deterministic counting embedder, an
 * in-memory connector, and a helper that registers connections. Test-only; never wired in the app.
 */
import type { ConnectionMode, Platform } from '@shared/models';
import type { Db } from '../core/db/database';
import type {
  DirectHit,
  DocumentRef,
  Connector,
  FetchedDocument,
  LocatedPart,
} from '../core/connectors/connector';
import type { EmbedResult, Embedder, EmbeddingSpace } from '../core/embedding/embedder';
import { chunkMarkdown } from '../core/chunking/chunker';
import { readSpaces, sameSpace } from '../core/index/embedding-spaces';
import { PgDocumentStore } from '../core/index/pg-document-store';
import { CairnError, throwIfAborted } from '../core/errors';
import { missingChunks, queuedDocuments, storeVectors } from '../core/spaces/semantic-index';

export async function insertConnection(
  db: Db,
  id: string,
  options: { platform?: Platform; mode?: ConnectionMode } = {},
): Promise<void> {
  // Each a millisecond after the last: lists order connections by created_at (then id), and PGlite's
  // clock can give two inserts in a row the same now(), which would list them by id instead.
  await db.query(
    `INSERT INTO connections (id, platform, name, mode, created_at)
     SELECT $1, $2, $1, $3, greatest(now(), max(created_at) + interval '1 millisecond') FROM connections`,
    [id, options.platform ?? 'folder', options.mode ?? 'rag'],
  );
}

/**
 * Two rag connections whose raw texts are their keyword texts (no analyzer): 600 'big' chunks that
 * outrank the 3 'small' ones on "alpha" everywhere, so a filter to 'small' must widen the keyword
 * scan's top list (120, 480, 1,920) until it holds every match; small's second chunk shares no word.
 * Chunk ids by connection, in insertion order.
 */
export async function insertBigAndSmall(db: Db): Promise<{ big: number[]; small: number[] }> {
  const insert = async (connectionId: string, texts: string[]) => {
    await insertConnection(db, connectionId);
    const documentId = (
      await db.query<{ id: number }>(
        `INSERT INTO documents (connection_id, external_id, title, knowledge_base, content_hash, content, chunk_count)
         VALUES ($1, $1, $1, 'kb', 'h', 'x', $2) RETURNING id`,
        [connectionId, texts.length],
      )
    ).rows[0]!.id;
    const rows = await db.query<{ id: number }>(
      `INSERT INTO chunks (document_id, connection_id, ord, heading_path, content, char_start, char_end, search_text)
       SELECT $1, $2, ord - 1, '', text, 0, 1, text FROM unnest($3::text[]) WITH ORDINALITY AS u(text, ord)
       RETURNING id`,
      [documentId, connectionId, texts],
    );
    return rows.rows.map((r) => Number(r.id));
  };
  const big = await insert(
    'big',
    Array.from({ length: 600 }, (_, i) => `alpha alpha alpha beta ${i}`),
  );
  const small = await insert('small', [
    'alpha gamma delta epsilon zeta eta theta iota kappa lambda',
    'nothing shared here',
    'alpha mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega',
  ]);
  return { big, small };
}

/** One Markdown document for writeMarkdownDocument; the content hash is its external id. */
export interface MarkdownFixture {
  connectionId: string;
  externalId: string;
  title: string;
  markdown: string;
  knowledgeBase?: string;
  url?: string | null;
  remoteUpdatedAt?: string | null;
  metadata?: Record<string, unknown>;
}

/**
 * Embeds every queued document into the space being filled (which must be `embedder`'s), as the
 * semantic index's builder does, batch by batch, without its background loop.
 */
export async function embedQueued(db: Db, embedder: Embedder): Promise<number> {
  const { active, pending } = await readSpaces(db);
  const space = pending ?? active;
  if (!space || !sameSpace(space, embedder.space))
    throw new Error(`No space of ${embedder.space.model} is being filled.`);
  let stored = 0;
  for (;;) {
    const documents = await queuedDocuments(db, 64);
    if (documents.length === 0) return stored;
    const chunks = await missingChunks(db, space, documents, 100_000);
    const { vectors } = chunks.length > 0 ? await embedder.embed(chunks.map((c) => c.text)) : { vectors: [] };
    stored += await storeVectors(db, space, chunks, vectors, documents);
  }
}

/**
 * Chunks a Markdown document and writes it, as a sync would; with an embedder, then embeds it
 * into the space being filled, as the semantic index would.
 */
export async function writeMarkdownDocument(
  db: Db,
  embedder: Embedder | null,
  doc: MarkdownFixture,
): Promise<void> {
  const chunks = chunkMarkdown(doc.markdown);
  await new PgDocumentStore(db).writeDocument({
    connectionId: doc.connectionId,
    ref: {
      externalId: doc.externalId,
      title: doc.title,
      knowledgeBase: doc.knowledgeBase ?? 'KB',
      url: doc.url ?? null,
      remoteUpdatedAt: doc.remoteUpdatedAt ?? null,
      revision: '1',
    },
    title: doc.title,
    contentHash: doc.externalId,
    content: doc.markdown,
    chunks,
    ...(doc.metadata ? { metadata: doc.metadata } : {}),
  });
  if (embedder) await embedQueued(db, embedder);
}

/**
 * Hashed character unigrams and bigrams (any script), L2-normalised: texts sharing words get
 * similar vectors, so vector search is meaningful in tests. Counts calls and inputs.
 */
export class CountingEmbedder implements Embedder {
  readonly space: EmbeddingSpace;
  calls = 0;
  inputs: string[] = [];
  /** Inputs containing this marker make the whole call fail (per-document failure tests). */
  failOn: string | null = null;

  constructor(options: { model?: string; dimensions?: number } = {}) {
    this.space = {
      provider: 'test',
      model: options.model ?? 'bigram-v1',
      dimensions: options.dimensions ?? 64,
    };
  }

  async embed(
    texts: string[],
    options: { kind?: 'document' | 'query'; signal?: AbortSignal } = {},
  ): Promise<EmbedResult> {
    throwIfAborted(options.signal);
    this.calls += 1;
    this.inputs.push(...texts);
    if (this.failOn && texts.some((t) => t.includes(this.failOn as string)))
      throw new CairnError('EMBEDDING_FAILED', 'Test embedder refused this input.');
    return {
      vectors: texts.map((t) => this.vector(t)),
      tokens: texts.reduce((n, t) => n + t.length, 0),
      calls: 1,
    };
  }

  vector(text: string): Float32Array {
    const v = new Float32Array(this.space.dimensions);
    const chars = [...text.toLowerCase()].filter((c) => /[\p{L}\p{N}]/u.test(c));
    const bump = (gram: string, weight: number) => {
      let h = 2166136261;
      for (let i = 0; i < gram.length; i++) h = Math.imul(h ^ gram.charCodeAt(i), 16777619);
      v[(h >>> 0) % v.length]! += weight;
    };
    chars.forEach((c, i) => {
      bump(c, 0.5);
      if (i + 1 < chars.length) bump(c + chars[i + 1], 1);
    });
    const norm = Math.hypot(...v);
    if (norm === 0) v[0] = 1;
    else for (let i = 0; i < v.length; i++) v[i] = v[i]! / norm;
    return v;
  }
}

export interface MemoryDocument {
  ref: DocumentRef;
  markdown: string;
  /** Served as `FetchedDocument.parts` (located text) instead of `markdown` when set. */
  parts?: LocatedPart[];
}

/** A connector serving documents from a Map; counts fetches and can fail on cue. */
export class MemoryConnector implements Connector {
  readonly platform: Platform = 'folder';
  readonly capabilities = { fullText: true, search: true, experimental: false, limitation: null };
  readonly documents = new Map<string, MemoryDocument>();
  fetches: string[] = [];
  /** Throw after listing this many refs. */
  failListingAfter: number | null = null;
  /** External ids whose fetch throws. */
  failFetch = new Set<string>();
  /** Called before each fetch (e.g. to abort mid-sync). */
  beforeFetch: ((ref: DocumentRef) => Promise<void> | void) | null = null;

  put(externalId: string, markdown: string, options: Partial<DocumentRef> = {}): void {
    const previous = this.documents.get(externalId);
    const version = previous ? Number(previous.ref.revision ?? '0') + 1 : 1;
    this.documents.set(externalId, {
      markdown,
      ref: {
        externalId,
        title: externalId,
        knowledgeBase: 'kb',
        url: `https://example.test/${encodeURIComponent(externalId)}`,
        remoteUpdatedAt: null,
        revision: String(version),
        ...options,
      },
    });
  }

  async validate(): Promise<string> {
    return 'ok';
  }

  async *list(signal?: AbortSignal): AsyncIterable<DocumentRef> {
    let listed = 0;
    for (const doc of [...this.documents.values()]) {
      throwIfAborted(signal);
      if (this.failListingAfter !== null && listed >= this.failListingAfter)
        throw new CairnError('SOURCE_UNREACHABLE', 'Listing broke off.');
      listed += 1;
      yield { ...doc.ref };
    }
  }

  async fetch(ref: DocumentRef, signal?: AbortSignal): Promise<FetchedDocument> {
    await this.beforeFetch?.(ref);
    throwIfAborted(signal);
    this.fetches.push(ref.externalId);
    if (this.failFetch.has(ref.externalId))
      throw new CairnError('SOURCE_ERROR', `Cannot read ${ref.externalId}.`);
    const doc = this.documents.get(ref.externalId);
    if (!doc) throw new CairnError('NOT_FOUND', `${ref.externalId} is gone.`);
    return doc.parts ? { markdown: '', parts: doc.parts } : { markdown: doc.markdown };
  }

  async search(query: string, options: { limit: number }): Promise<DirectHit[]> {
    return [...this.documents.values()]
      .filter((d) => d.markdown.includes(query))
      .slice(0, options.limit)
      .map((d) => ({
        externalId: d.ref.externalId,
        title: d.ref.title,
        snippet: d.markdown.slice(0, 200),
        url: d.ref.url,
        knowledgeBase: d.ref.knowledgeBase,
      }));
  }
}
