/**
 * `npm run bench -- --only real-text` (child-process side): offline indexing speed on real prose,
 * beside the generated corpus in the same run. Real Chinese and English text indexed slower than
 * the generated notes (issue #15: 158–223 chunks/s), so this indexes the public collections that
 * `npm run eval` reads (shared/eval: cmrc2018 is Chinese Wikipedia, scifact English abstracts)
 * through the real sync in the default configuration (keyword index, no vectors), then generated documents up to the same number
 * of chunks, each into a fresh data directory, and reports chunks and characters per wall and per
 * CPU second with the stage split (bench/instrumented.ts).
 */
import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chunkMarkdown } from '../src-main/core/chunking/chunker';
import { findSharedReference } from '../src-main/testing/shared-reference';
import { loadCollection } from './collection';
import { generateDocument } from './corpus';
import { collectionDocuments } from './evaluate-collection';
import { StageClock, TimedStore, timedChunker } from './instrumented';
import { MemoryConnector, type MemoryDocumentInput } from './memory-connector';
import { CONNECTION_ID, openPipeline } from './pipeline';
import { REPO_ROOT } from './report';

export interface RealTextRun {
  corpus: string;
  documents: number;
  chunks: number;
  chars: number;
  /** Characters per chunk, on average (chunk text, without title and headings). */
  charsPerChunk: number;
  wallMs: number;
  cpuMs: number;
  chunksPerS: number;
  chunksPerCpuS: number;
  charsPerCpuS: number;
  stagesMs: StageClock['ms'];
}

export interface RealTextResult {
  runs: RealTextRun[];
}

/** The collections `npm run eval` reads, where the repository finds them. */
export function evalRoot(): string {
  return findSharedReference(REPO_ROOT, 'eval') ?? resolve(REPO_ROOT, '..', 'shared', 'eval');
}

export async function runRealText(options: {
  workDir: string;
  seed: number;
  collections: string[];
  /** Documents per collection at most (the first ones in the file). */
  maxDocuments: number;
}): Promise<RealTextResult> {
  const runs: RealTextRun[] = [];
  for (const name of options.collections) {
    const dir = join(evalRoot(), name);
    if (!existsSync(dir)) {
      log(`${dir} is missing; ${name} skipped`);
      continue;
    }
    const documents = collectionDocuments(name, loadCollection(dir).corpus.slice(0, options.maxDocuments));
    const run = await indexDocuments(join(options.workDir, name), name, documents);
    runs.push(run);
    // The generated corpus up to the same number of chunks, so the two compare within the run.
    const generated: MemoryDocumentInput[] = [];
    for (let i = 0, chunks = 0; chunks < run.chunks; i++) {
      const doc = generateDocument(i, { seed: options.seed });
      generated.push(doc);
      chunks += chunkMarkdown(doc.markdown).length;
    }
    runs.push(
      await indexDocuments(
        join(options.workDir, `${name}-generated`),
        `generated (${name}'s size)`,
        generated,
      ),
    );
  }
  return { runs };
}

async function indexDocuments(
  dataDir: string,
  corpus: string,
  documents: MemoryDocumentInput[],
): Promise<RealTextRun> {
  rmSync(dataDir, { recursive: true, force: true });
  const clock = new StageClock();
  let chars = 0;
  const chunk = timedChunker(clock);
  const pipeline = await openPipeline({
    dataDir,
    chunk: (markdown) => {
      const chunks = chunk(markdown);
      for (const c of chunks) chars += c.text.length;
      return chunks;
    },
    wrapStore: (store) => new TimedStore(store, clock),
  });
  const connector = new MemoryConnector();
  for (const doc of documents) connector.put(doc);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const run = await pipeline.engine.run({ connectionId: CONNECTION_ID, connector });
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  await pipeline.db.close();
  rmSync(dataDir, { recursive: true, force: true });
  if (run.status !== 'succeeded') throw new Error(`Indexing ${corpus} ${run.status}`);
  const chunks = run.counters.chunksWritten;
  const cpuMs = (cpu.user + cpu.system) / 1000;
  log(`${corpus}: ${documents.length} documents, ${chunks} chunks in ${(wallMs / 1000).toFixed(1)} s`);
  return {
    corpus,
    documents: documents.length,
    chunks,
    chars,
    charsPerChunk: chars / Math.max(1, chunks),
    wallMs,
    cpuMs,
    chunksPerS: chunks / (wallMs / 1000),
    chunksPerCpuS: chunks / (cpuMs / 1000),
    charsPerCpuS: chars / (cpuMs / 1000),
    stagesMs: { ...clock.ms },
  };
}

function log(message: string): void {
  process.stderr.write(`  [real-text] ${message}\n`);
}
