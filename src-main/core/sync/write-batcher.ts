/**
 * Group commit for document writes. Documents that finish embedding while a write is running
 * wait, and go together in the next transaction (one statement per table for the group), which
 * measured 1.5x cheaper per document than a transaction each (docs/decisions/indexing-throughput.md).
 * A group is all-or-nothing, so every document in it is still atomic; when a group fails, its
 * documents are written again one per transaction, so one bad document fails alone and the
 * others land.
 */
import { setImmediate } from 'node:timers';
import type { DocumentStore, DocumentToWrite } from '../index/document-store';

export interface WriteBatcherOptions {
  /** Documents per transaction. @default 32 */
  maxDocuments?: number;
  /** Chunks per transaction (a long document goes alone). @default 256 */
  maxChunks?: number;
  /**
   * True while searches run (AccessGate.busy): groups are then cut to `busyMaxChunks`, because a
   * search waits for at most the one write transaction already running, and a short one keeps
   * that wait short (docs/decisions/search-during-sync.md). @default never
   */
  searching?: () => boolean;
  /** Chunks per transaction while `searching()`. @default 32 */
  busyMaxChunks?: number;
}

interface Waiting {
  doc: DocumentToWrite;
  resolve: (written: { documentId: number }) => void;
  reject: (error: unknown) => void;
}

export class WriteBatcher {
  /** Transactions that wrote a group of two or more documents (tests, diagnostics). */
  groups = 0;
  private waiting: Waiting[] = [];
  private draining = false;
  private readonly maxDocuments: number;
  private readonly maxChunks: number;
  private readonly busyMaxChunks: number;

  constructor(
    private readonly store: Pick<DocumentStore, 'writeDocument' | 'writeDocuments'>,
    options: WriteBatcherOptions = {},
  ) {
    this.maxDocuments = Math.max(1, options.maxDocuments ?? 32);
    this.maxChunks = Math.max(1, options.maxChunks ?? 256);
    this.busyMaxChunks = Math.max(1, Math.min(this.maxChunks, options.busyMaxChunks ?? 32));
    this.searching = options.searching ?? (() => false);
  }

  private readonly searching: () => boolean;

  /** Resolves once the document is committed (alone or in a group). */
  write(doc: DocumentToWrite): Promise<{ documentId: number }> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ doc, resolve, reject });
      if (this.draining) return;
      this.draining = true;
      // One turn later: documents whose vectors arrived together (one embedder batch) then share the first group too.
      setImmediate(() => void this.drain());
    });
  }

  /**
   * Writes groups until nobody waits; one drain at a time (PGlite runs one statement at a time
   * anyway). The flag is cleared in the same turn as the last emptiness check, so a document
   * queued after it starts a new drain.
   */
  private async drain(): Promise<void> {
    try {
      while (this.waiting.length > 0) {
        const group = this.takeGroup();
        if (group.length === 1) {
          await this.writeAlone(group[0]!);
          continue;
        }
        try {
          const written = await this.store.writeDocuments(group.map((w) => w.doc));
          this.groups += 1;
          group.forEach((w, index) => w.resolve(written[index]!));
        } catch {
          // The group rolled back whole: nothing of it landed, so each document goes again alone.
          for (const w of group) await this.writeAlone(w);
        }
      }
    } finally {
      this.draining = false;
    }
  }

  private takeGroup(): Waiting[] {
    const maxChunks = this.searching() ? this.busyMaxChunks : this.maxChunks;
    let chunks = 0;
    let count = 0;
    for (const w of this.waiting) {
      if (count >= this.maxDocuments || (count > 0 && chunks + w.doc.chunks.length > maxChunks)) break;
      chunks += w.doc.chunks.length;
      count += 1;
    }
    return this.waiting.splice(0, count);
  }

  private async writeAlone(w: Waiting): Promise<void> {
    try {
      w.resolve(await this.store.writeDocument(w.doc));
    } catch (error) {
      w.reject(error);
    }
  }
}
