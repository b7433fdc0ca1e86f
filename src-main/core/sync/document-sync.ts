/**
 * One document through the pipeline: fetch → normalise and hash (unchanged hash and title: touch
 * only) → chunk → analyse (keyword text) → write (grouped with others, each document atomic). The
 * sync writes no vector: with a semantic model, the store's write queues the document for the
 * background semantic index (spaces/semantic-index.ts).
 */
import { chunkMarkdown, type Chunk } from '../chunking/chunker';
import { joinHeadingPath } from '../chunking/sections';
import type { DocumentNotice, DocumentRef } from '../connectors/connector';
import { chunkBytesEstimate } from '../db/disk-space';
import { CairnError, throwIfAborted } from '../errors';
import { ANALYSIS_VERSION } from '../index/analysis-version';
import type { DocumentStore, StoredDocumentState } from '../index/document-store';
import { RELEASE_MEMORY_CHARS, releaseMemory } from '../index/release-memory';
import { cleanMarkdown, type DocumentMetadata } from '../text/clean-markdown';
import { contentHash, normalizeText } from '../text/normalize';
import { analyzeDocument, type KeywordAnalyzer } from './keyword-analysis';
import { chunkLocated, joinLocatedParts } from './located-text';
import { cleanTitle } from './run-record';
import type { SpaceCheck, SyncRequest } from './sync-request';
import type { WriteBatcher } from './write-batcher';

/** What analyses and writes the documents of one run. */
export interface AnalyzeWrite {
  analyzer: KeywordAnalyzer;
  writer: WriteBatcher;
}

export type DocumentOutcome = ({ kind: 'touched' } | { kind: 'added' | 'updated'; chunks: number }) & {
  /** What the platform held back from the document (a partial read), said on the run. */
  notice?: DocumentNotice;
};

export interface DocumentSyncDeps {
  store: DocumentStore;
  /** @default chunkMarkdown */
  chunk?: (markdown: string) => Chunk[];
  health: SpaceCheck;
}

/** What a fetched document becomes before its chunks: its cleaned text and what keys it. */
interface PreparedDocument {
  content: string;
  metadata: DocumentMetadata;
  title: string;
  hash: string;
  notice: DocumentNotice | undefined;
  /** The chunks, made on first use: an unchanged document is never chunked. */
  chunks: () => Chunk[];
}

/**
 * Fetches, normalises, cleans and hashes one document. Its own function so that what the source
 * sent and its normalised copy are garbage once it returns: a suspended async function keeps its
 * locals, and for an 18 MB Chinese file each copy is 26 MB of UTF-16 otherwise held through the
 * whole analysis and write (docs/decisions/large-documents.md).
 */
async function fetchDocument(
  deps: DocumentSyncDeps,
  request: SyncRequest,
  ref: DocumentRef,
  fetchSignal: AbortSignal,
): Promise<PreparedDocument> {
  const fetched = await request.connector.fetch(ref, fetchSignal);
  throwIfAborted(request.signal);
  if (!fetched || typeof fetched.markdown !== 'string')
    throw new CairnError('DOCUMENT_FAILED', 'The source returned no text for this document.');
  const located = fetched.parts ? joinLocatedParts(fetched.parts) : null;
  const source = located ? located.content : normalizeText(fetched.markdown);
  // What is indexed and shown is the text without site-generator markup; the hash stays the source's.
  // Located text (pages, slides, rows) is extracted text, not Markdown with front matter, and its
  // chunks' locations are offsets into it: it is indexed as it is.
  const { markdown: content, metadata } = located
    ? { markdown: source, metadata: {} }
    : cleanMarkdown(source);
  const title = cleanTitle(metadata.title ?? fetched.title ?? ref.title, ref.externalId);
  const breadcrumb = (fetched.breadcrumb ?? []).map((crumb) => cleanTitle(crumb, '')).filter(Boolean);
  // The breadcrumb is part of every chunk, so a document moved in its tree is rewritten like an edited one.
  const hash = contentHash(breadcrumb.length > 0 ? `${joinHeadingPath(breadcrumb)}\n${source}` : source);
  const chunk = deps.chunk ?? chunkMarkdown;
  return {
    content,
    metadata,
    title,
    hash,
    notice: fetched.notice,
    chunks: () =>
      (located ? chunkLocated(located, chunk) : chunk(content)).map((piece) =>
        breadcrumb.length > 0
          ? { ...piece, headingPath: joinHeadingPath([...breadcrumb, piece.headingPath]) }
          : piece,
      ),
  };
}

export async function syncDocument(
  deps: DocumentSyncDeps,
  request: SyncRequest,
  ref: DocumentRef,
  state: StoredDocumentState | undefined,
  pipeline: AnalyzeWrite,
  fetchSignal: AbortSignal,
): Promise<DocumentOutcome> {
  const { connectionId, signal } = request;
  const prepared = await fetchDocument(deps, request, ref, fetchSignal);
  const { content, metadata, title, hash, notice } = prepared;
  // A very large document's read copies are garbage now, and V8 would keep them resident through
  // its write (release-memory.ts).
  const large = content.length > RELEASE_MEMORY_CHARS;
  if (large) releaseMemory();
  // The title feeds every chunk's keyword text (and its embedding), so a renamed document is rewritten;
  // so is one whose rows an older analysis wrote.
  if (
    state &&
    state.contentHash === hash &&
    state.title === title &&
    state.analysisVersion === ANALYSIS_VERSION
  ) {
    await deps.store.touchDocument(connectionId, ref, title);
    return { kind: 'touched', notice };
  }
  const chunks = prepared.chunks();
  if (large) releaseMemory();
  // Not cancellable on its own (a few milliseconds of work): a call into the analysis worker holds
  // an abort listener until it answers, and the run's signal would then carry one per document in
  // flight (Node's leak warning past 10). The cancel is checked as soon as it answers.
  const searchTexts = await analyzeDocument(pipeline.analyzer, title, chunks);
  throwIfAborted(signal);
  // Cairn's own writes stop short of the database's reserve (disk-space.ts); the sync writes no
  // vector (the semantic index adds them later and checks again before it does).
  deps.health.ensureSpace(chunkBytesEstimate(chunks.length, 0));
  await pipeline.writer.write({
    connectionId,
    ref,
    title,
    contentHash: hash,
    content,
    metadata,
    chunks,
    ...(searchTexts ? { searchTexts } : {}),
  });
  return { kind: state ? 'updated' : 'added', chunks: chunks.length, notice };
}
