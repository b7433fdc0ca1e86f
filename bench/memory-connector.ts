/**
 * A Connector over documents held in memory, for the benchmark and the evaluation: it lets the
 * real SyncEngine index a generated corpus or a test collection without a platform or a folder.
 * Each document carries a revision, so an unchanged re-sync skips it without a fetch, as the
 * platform connectors do.
 */
import type { Platform } from '@shared/models';
import type {
  Connector,
  DirectHit,
  DocumentRef,
  FetchedDocument,
} from '../src-main/core/connectors/connector';
import { CairnError, throwIfAborted } from '../src-main/core/errors';

export interface MemoryDocumentInput {
  externalId: string;
  title: string;
  knowledgeBase: string;
  /**
   * The text, or how to make it again on each fetch. A generated corpus is regenerated rather than
   * held: no platform connector keeps its documents in memory (it fetches one, the sync writes it,
   * it is gone), so a benchmark that held 86 M characters in the indexing process would count
   * ~200 MB of JS heap the app never has.
   */
  markdown: string | (() => string);
}

export class MemoryConnector implements Connector {
  readonly platform: Platform = 'folder';
  readonly capabilities = { fullText: true, search: false, experimental: false, limitation: null };
  /** Fetches served, for checking that an unchanged re-sync fetches nothing. */
  fetchCount = 0;
  /** Time spent regenerating documents on fetch: the benchmark's own cost, not the sync's. */
  regenerateMs = 0;
  private readonly documents = new Map<
    string,
    { ref: DocumentRef; markdown: MemoryDocumentInput['markdown'] }
  >();

  /** Adds or replaces a document; a replaced one gets a new revision. */
  put(doc: MemoryDocumentInput): void {
    const previous = this.documents.get(doc.externalId);
    const revision = String(previous ? Number(previous.ref.revision) + 1 : 1);
    this.documents.set(doc.externalId, {
      markdown: doc.markdown,
      ref: {
        externalId: doc.externalId,
        title: doc.title,
        knowledgeBase: doc.knowledgeBase,
        url: null,
        remoteUpdatedAt: null,
        revision,
      },
    });
  }

  get size(): number {
    return this.documents.size;
  }

  async validate(): Promise<string> {
    return `${this.documents.size} documents in memory`;
  }

  async *list(signal?: AbortSignal): AsyncIterable<DocumentRef> {
    for (const { ref } of this.documents.values()) {
      throwIfAborted(signal);
      yield { ...ref };
    }
  }

  async fetch(ref: DocumentRef, signal?: AbortSignal): Promise<FetchedDocument> {
    throwIfAborted(signal);
    const doc = this.documents.get(ref.externalId);
    if (!doc) throw new CairnError('NOT_FOUND', `${ref.externalId} is not in memory.`);
    this.fetchCount += 1;
    if (typeof doc.markdown === 'string') return { markdown: doc.markdown, title: doc.ref.title };
    const started = performance.now();
    const markdown = doc.markdown();
    this.regenerateMs += performance.now() - started;
    return { markdown, title: doc.ref.title };
  }

  async search(): Promise<DirectHit[]> {
    throw new CairnError('UNSUPPORTED', 'The in-memory connector is indexed, not searched live.');
  }
}
