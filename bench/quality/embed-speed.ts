/**
 * Built-in embedder and analyzer throughput on 1,500-character chunks cut from the eval corpora
 * (Chinese: cmrc2018, English: scifact), one core, cold pass (empty prior cache) then warm pass.
 *
 *   npx tsx bench/quality/embed-speed.ts
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BuiltinEmbedder } from '../../src-main/core/embedding/builtin-embedder';
import { analyze } from '../../src-main/core/text/analyzer';
import { defaultEvalDir } from './quick-eval';

const CHUNK_CHARS = 1500;

function chunksOf(name: string, count: number): string[] {
  const text = readFileSync(join(defaultEvalDir(), name, 'corpus.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { text: string }).text)
    .join(' ');
  return Array.from({ length: Math.min(count, Math.floor(text.length / CHUNK_CHARS)) }, (_, i) =>
    text.slice(i * CHUNK_CHARS, (i + 1) * CHUNK_CHARS),
  );
}

function perSecond(chunks: string[], work: (text: string) => unknown): number {
  const started = performance.now();
  for (const chunk of chunks) work(chunk);
  return Math.round((chunks.length / (performance.now() - started)) * 1000);
}

for (const [label, name] of [
  ['Chinese', 'cmrc2018'],
  ['English', 'scifact'],
] as const) {
  const chunks = chunksOf(name, 300);
  const embedder = new BuiltinEmbedder();
  const cold = perSecond(chunks, (text) => embedder.embedOne(text));
  const warm = perSecond(chunks, (text) => embedder.embedOne(text));
  const analyzer = perSecond(chunks, (text) => analyze(text));
  console.log(
    `${label}: ${chunks.length} chunks of ${CHUNK_CHARS} chars — embed cold ${cold}/s, warm ${warm}/s; analyze ${analyzer}/s`,
  );
}
