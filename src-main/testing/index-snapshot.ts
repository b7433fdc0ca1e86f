/**
 * What an on-disk index holds, read straight from its database (Cairn closed), and the checks a
 * crash must pass: every document whole (its chunks are exactly the chunking of its stored text,
 * its chunk count right, no more vectors than chunks in the space that serves: the semantic index
 * fills vectors in the background, so fewer is no tear), and nothing lost that was indexed before.
 * Shared by the crash tests and scripts/crash-harness.ts.
 */
import { dataDirLayout } from '../core/app/data-dir';
import { chunkMarkdown } from '../core/chunking/chunker';
import { openDatabase } from '../core/db/database';
import { readSpaces, spaceTable } from '../core/index/embedding-spaces';

export interface IndexedDocument {
  connectionId: string;
  content: string;
  chunks: string[];
  chunkCount: number;
  /** Chunks of the document with a vector in the active space. */
  vectors: number;
}

/** Documents by `<connectionId>/<externalId>`. */
export type IndexSnapshot = Map<string, IndexedDocument>;

export async function indexSnapshot(dataDir: string): Promise<IndexSnapshot> {
  const db = await openDatabase({ dataDir: dataDirLayout(dataDir).database });
  try {
    const documents = await db.query<{
      id: number;
      connection_id: string;
      external_id: string;
      content: string;
      chunk_count: number;
    }>('SELECT id, connection_id, external_id, content, chunk_count FROM documents');
    const chunks = await db.query<{ document_id: number; content: string }>(
      'SELECT document_id, content FROM chunks ORDER BY document_id, ord',
    );
    const active = (await readSpaces(db)).active;
    const vectors = active
      ? await db.query<{ document_id: number; n: number }>(
          `SELECT c.document_id, count(*)::int AS n FROM ${spaceTable(active)} e JOIN chunks c ON c.id = e.chunk_id GROUP BY c.document_id`,
        )
      : { rows: [] };
    const chunksOf = new Map<number, string[]>();
    for (const chunk of chunks.rows) {
      const id = Number(chunk.document_id);
      chunksOf.set(id, [...(chunksOf.get(id) ?? []), chunk.content]);
    }
    const vectorsOf = new Map(vectors.rows.map((row) => [Number(row.document_id), row.n]));
    return new Map(
      documents.rows.map((row) => [
        `${row.connection_id}/${row.external_id}`,
        {
          connectionId: row.connection_id,
          content: row.content,
          chunks: chunksOf.get(Number(row.id)) ?? [],
          chunkCount: row.chunk_count,
          vectors: active ? (vectorsOf.get(Number(row.id)) ?? 0) : 0,
        },
      ]),
    );
  } finally {
    await db.close();
  }
}

/** Documents that are not whole: chunks that are not their text's chunking, or stray vectors. */
export function tornDocuments(snapshot: IndexSnapshot): string[] {
  const torn: string[] = [];
  for (const [key, document] of snapshot) {
    const expected = chunkMarkdown(document.content).map((chunk) => chunk.text);
    const whole =
      document.chunks.length === expected.length &&
      document.chunks.every((text, index) => text === expected[index]) &&
      document.chunkCount === document.chunks.length &&
      document.vectors <= document.chunks.length;
    if (!whole) torn.push(key);
  }
  return torn;
}

/**
 * Documents indexed `before` that are gone, or hold a text that is neither their text before nor
 * one the source has held since (`since`: every text each document was given, by key). A document
 * its source deleted may be gone.
 */
export function lostDocuments(
  before: IndexSnapshot,
  after: IndexSnapshot,
  since: Map<string, Set<string>>,
  deleted: Set<string> = new Set(),
): string[] {
  const lost: string[] = [];
  for (const [key, document] of before) {
    const now = after.get(key);
    if (!now) {
      if (!deleted.has(key)) lost.push(key);
      continue;
    }
    if (now.content !== document.content && !since.get(key)?.has(now.content)) lost.push(key);
  }
  return lost;
}
