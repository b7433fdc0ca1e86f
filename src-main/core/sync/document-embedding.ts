/**
 * One document's chunks → their vectors (and keyword texts), through the run's EmbedBatcher. A
 * document of more than GROUP_CHUNKS chunks (a 20 MB export has ~11,000) is embedded a group at
 * a time: only one group's embedding inputs exist at once, and its keyword texts are not kept
 * (the store analyses those rows as it writes them, one statement's worth at a time), so what
 * the document holds until its write is its chunks and one vector per chunk.
 */
import type { Chunk } from '../chunking/chunker';
import { embeddingInput } from '../index/embedding-input';
import type { EmbedBatcher, Embedded } from './embed-batcher';

/** Chunks per embedding group of one large document. */
export const GROUP_CHUNKS = 256;

export async function embedDocument(
  batcher: Pick<EmbedBatcher, 'embed'>,
  title: string,
  chunks: Chunk[],
): Promise<Embedded> {
  const inputsOf = (from: number, to: number) =>
    chunks.slice(from, to).map((c) => embeddingInput({ title, headingPath: c.headingPath, text: c.text }));
  if (chunks.length <= GROUP_CHUNKS) return batcher.embed(inputsOf(0, chunks.length));
  const vectors: Float32Array[] = [];
  // Two groups in flight: the batcher's two lanes stay busy, and memory holds two groups, not all.
  let next = batcher.embed(inputsOf(0, GROUP_CHUNKS));
  for (let start = 0; start < chunks.length; start += GROUP_CHUNKS) {
    const current = next;
    const following = start + GROUP_CHUNKS;
    if (following < chunks.length) {
      next = batcher.embed(inputsOf(following, following + GROUP_CHUNKS));
      // A failure of the group after this one is reported by its own await, not as unhandled.
      next.catch(() => {});
    }
    for (const vector of (await current).vectors) vectors.push(vector);
  }
  return { vectors };
}
