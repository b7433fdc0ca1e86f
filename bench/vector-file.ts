/**
 * Vectors as the sync wrote them, appended to a flat binary file (int32 document id, int32 chunk
 * ordinal, float32 × dimensions per record), so the exact reference can be rebuilt in another
 * process without holding hundreds of MB in the process being measured. A later record for the
 * same (document, ordinal) replaces an earlier one, as a re-sync does.
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { Chunk } from '../src-main/core/chunking/chunker';

export class VectorFileWriter {
  private readonly fd: number;

  constructor(
    path: string,
    private readonly dimensions: number,
  ) {
    this.fd = openSync(path, 'a');
  }

  append(documentId: number, chunks: readonly Chunk[], vectors: readonly Float32Array[]): void {
    const recordFloats = 2 + this.dimensions;
    const buffer = new ArrayBuffer(chunks.length * recordFloats * 4);
    const ints = new Int32Array(buffer);
    const floats = new Float32Array(buffer);
    chunks.forEach((chunk, i) => {
      ints[i * recordFloats] = documentId;
      ints[i * recordFloats + 1] = chunk.ord;
      floats.set(vectors[i]!, i * recordFloats + 2);
    });
    writeSync(this.fd, new Uint8Array(buffer));
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** The latest vector of each (document id, ordinal), keyed `${documentId}:${ord}`. */
export function readVectorFile(path: string, dimensions: number): Map<string, Float32Array> {
  const bytes = readFileSync(path);
  const recordFloats = 2 + dimensions;
  const records = Math.floor(bytes.byteLength / (recordFloats * 4));
  // Typed views need 4-byte alignment; a large file read is its own (aligned) buffer, so this copy is rare.
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : Uint8Array.prototype.slice.call(bytes);
  const ints = new Int32Array(aligned.buffer, aligned.byteOffset, records * recordFloats);
  const floats = new Float32Array(aligned.buffer, aligned.byteOffset, records * recordFloats);
  const vectors = new Map<string, Float32Array>();
  for (let r = 0; r < records; r++) {
    const base = r * recordFloats;
    vectors.set(`${ints[base]}:${ints[base + 1]}`, floats.subarray(base + 2, base + recordFloats));
  }
  return vectors;
}
