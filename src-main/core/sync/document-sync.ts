/**
 * One document through the pipeline: fetch → normalise and hash (unchanged hash and title: touch
 * only) → chunk → embed (batched with other documents) → write (grouped with others, each document
 * atomic). A re-embed that flips the active space mid-run: a refused write is embedded again for
 * the space that serves now, and later documents use that embedder.
 */
import { chunkMarkdown, type Chunk } from '../chunking/chunker';
import { joinHeadingPath } from '../chunking/sections';
import type { DocumentNotice, DocumentRef } from '../connectors/connector';
import { chunkBytesEstimate } from '../db/disk-space';
import { spaceKey, type Embedder } from '../embedding/embedder';
import { CairnError, throwIfAborted } from '../errors';
import { ANALYSIS_VERSION } from '../index/analysis-version';
import type { DocumentStore, StoredDocumentState } from '../index/document-store';
import { sameSpace } from '../index/embedding-spaces';
import type { Logger } from '../logging/logger';
import { cleanMarkdown } from '../text/clean-markdown';
import { contentHash, normalizeText } from '../text/normalize';
import { embedDocument } from './document-embedding';
import type { EmbedBatcher } from './embed-batcher';
import { chunkLocated, joinLocatedParts } from './located-text';
import { cleanTitle } from './run-record';
import type { SpaceCheck, SyncRequest } from './sync-request';
import type { WriteBatcher } from './write-batcher';

/** What embeds and writes the documents of one run; `embedder` changes when a re-embed flips the active space mid-run. */
export interface EmbedWrite {
  embedder: Embedder;
  writer: WriteBatcher;
  batcherFor(embedder: Embedder): EmbedBatcher;
}

export type DocumentOutcome = ({ kind: 'touched' } | { kind: 'added' | 'updated'; chunks: number }) & {
  /** What the platform held back from the document (a partial read), said on the run. */
  notice?: DocumentNotice;
};

export interface DocumentSyncDeps {
  store: DocumentStore;
  /** @default chunkMarkdown */
  chunk?: (markdown: string) => Chunk[];
  logger: Logger;
  health: SpaceCheck;
}

export async function syncDocument(
  deps: DocumentSyncDeps,
  request: SyncRequest,
  ref: DocumentRef,
  state: StoredDocumentState | undefined,
  pipeline: EmbedWrite,
  fetchSignal: AbortSignal,
): Promise<DocumentOutcome> {
  const { connectionId, connector, signal } = request;
  const fetched = await connector.fetch(ref, fetchSignal);
  throwIfAborted(signal);
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
  // The title feeds every chunk's embedding and keyword text, so a renamed document is rewritten;
  // so is one whose rows an older analysis wrote.
  if (
    state &&
    state.contentHash === hash &&
    state.title === title &&
    state.analysisVersion === ANALYSIS_VERSION
  ) {
    await deps.store.touchDocument(connectionId, ref, title);
    return { kind: 'touched', notice: fetched.notice };
  }
  const chunk = deps.chunk ?? chunkMarkdown;
  const chunks = (located ? chunkLocated(located, chunk) : chunk(content)).map((piece) =>
    breadcrumb.length > 0
      ? { ...piece, headingPath: joinHeadingPath([...breadcrumb, piece.headingPath]) }
      : piece,
  );
  const write = async (embedder: Embedder) => {
    const { vectors, keywordTexts } = await embedDocument(pipeline.batcherFor(embedder), title, chunks);
    throwIfAborted(signal);
    // Cairn's own writes stop short of the database's reserve (disk-space.ts).
    deps.health.ensureSpace(chunkBytesEstimate(chunks.length, embedder.space.dimensions));
    await pipeline.writer.write({
      connectionId,
      ref,
      title,
      contentHash: hash,
      content,
      metadata,
      chunks,
      vectors,
      // The inputs are the chunks' embeddingInput, so their keyword texts are keywordInput's.
      ...(keywordTexts ? { searchTexts: keywordTexts } : {}),
      space: embedder.space,
    });
  };
  await writeInServingSpace(deps, request, pipeline, write);
  return { kind: state ? 'updated' : 'added', chunks: chunks.length, notice: fetched.notice };
}

/**
 * Writes with the run's embedder; when that write fails and a re-embed has flipped the active space
 * since, the document's vectors belong to a retired space: it is embedded again for the space that
 * serves now, which the rest of the run then uses.
 */
async function writeInServingSpace(
  deps: DocumentSyncDeps,
  request: SyncRequest,
  pipeline: EmbedWrite,
  write: (embedder: Embedder) => Promise<void>,
): Promise<void> {
  const used = pipeline.embedder;
  try {
    await write(used);
  } catch (error) {
    const now = request.currentEmbedder && !request.signal?.aborted ? await request.currentEmbedder() : null;
    if (!now || sameSpace(now.space, used.space)) throw error;
    if (sameSpace(pipeline.embedder.space, used.space)) {
      deps.logger.info('the active embedding space changed during the sync; writing into the new one', {
        connectionId: request.connectionId,
        from: spaceKey(used.space),
        to: spaceKey(now.space),
      });
      pipeline.embedder = now;
    }
    await write(now);
  }
}
