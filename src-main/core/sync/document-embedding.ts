/**
 * One document's chunks → their vectors (and keyword texts), through the run's EmbedBatcher. A
 * document of more than GROUP_CHUNKS chunks (a 20 MB export has ~11,000) is embedded a group at
 * a time, so only one or two groups' embedding inputs exist at once. Past KEYWORD_TEXTS_MAX_CHUNKS
 * its keyword texts are not kept either (the store analyses those rows again as it writes them,
 * one statement's worth at a time): what such a document holds until its write is its chunks and
 * one vector per chunk. Below it, keeping them saves the second analysis (measured: a 5 MB
 * document's sync ~1.5x slower without them).
 */
import type { Chunk } from '../chunking/chunker';
import { embeddingInput } from '../index/embedding-input';
import type { EmbedBatcher, Embedded } from './embed-batcher';

/** Chunks per embedding group of one large document. */
export const GROUP_CHUNKS = 256;
/** Largest document (in chunks) whose keyword texts are kept for its write: ~7 MB of text. */
export const KEYWORD_TEXTS_MAX_CHUNKS = 4000;

export async function embedDocument(
  batcher: Pick<EmbedBatcher, 'embed'>,
  title: string,
  chunks: Chunk[],
  options: { keywordTextsMaxChunks?: number } = {},
): Promise<Embedded> {
  const inputsOf = (from: number, to: number) =>
    chunks.slice(from, to).map((c) => embeddingInput({ title, headingPath: c.headingPath, text: c.text }));
  if (chunks.length <= GROUP_CHUNKS) return batcher.embed(inputsOf(0, chunks.length));
  const vectors: Float32Array[] = [];
  let keywordTexts: string[] | undefined =
    chunks.length <= (options.keywordTextsMaxChunks ?? KEYWORD_TEXTS_MAX_CHUNKS) ? [] : undefined;
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
    const embedded = await current;
    for (const vector of embedded.vectors) vectors.push(vector);
    if (keywordTexts && embedded.keywordTexts)
      for (const text of embedded.keywordTexts) keywordTexts.push(text);
    else keywordTexts = undefined;
  }
  return keywordTexts ? { vectors, keywordTexts } : { vectors };
}
