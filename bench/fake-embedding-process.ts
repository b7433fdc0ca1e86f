/**
 * The fake OpenAI-compatible embeddings server (src-main/core/embedding/fake-embedding-server.ts)
 * in its own process, with a fixed latency per request, so the benchmark's remote embedder talks
 * real HTTP on 127.0.0.1 and the server's own work does not count against the process measured.
 * Prints one line `READY <baseUrl> <apiKey>`, then serves until stdin closes or it is killed.
 */
import { startFakeEmbeddingServer } from '../src-main/core/embedding/fake-embedding-server';

const latencyMs = Number(process.argv[2] ?? '100');
const server = await startFakeEmbeddingServer({ latencyMs });
process.stdout.write(`READY ${server.baseUrl} ${server.apiKey}\n`);

async function stop(): Promise<void> {
  process.stderr.write(
    `  [fake embeddings] ${server.stats.requests} requests, ${server.stats.inputs} inputs, at most ${server.stats.maxInFlight} in flight\n`,
  );
  await server.close();
  process.exit(0);
}

process.stdin.on('end', () => void stop());
process.stdin.resume();
process.on('SIGTERM', () => void stop());
