/**
 * onnxruntime-node, loaded only when a local model is used (the app starts without it, and a
 * platform without a binary gets a clear error instead of a crash at start).
 *
 * One onnxruntime version per process: a second copy (e.g. the one transformers.js or fastembed
 * pin) fails to load next to it, even in another worker thread (docs/decisions/local-models.md).
 */
import { CairnError } from '../errors';

export type Ort = typeof import('onnxruntime-node');
export type OrtSession = import('onnxruntime-node').InferenceSession;

/** onnxruntime-node 1.24+ ships no Intel-mac binary (1.23.x was the last); Cairn pins 1.30.0. */
export function localModelsUnsupportedReason(
  platform: string = process.platform,
  arch: string = process.arch,
): string | null {
  if (platform === 'darwin' && arch === 'x64')
    return 'Local models need onnxruntime-node, which ships no Intel-Mac (darwin-x64) build since 1.24; use Ollama or a remote provider on this Mac.';
  const supported = ['linux-x64', 'linux-arm64', 'darwin-arm64', 'win32-x64', 'win32-arm64'];
  return supported.includes(`${platform}-${arch}`)
    ? null
    : `Local models are not available on ${platform}-${arch} (no onnxruntime-node build).`;
}

let loaded: Promise<Ort> | null = null;

export function loadOrt(): Promise<Ort> {
  const reason = localModelsUnsupportedReason();
  if (reason) return Promise.reject(new CairnError('UNSUPPORTED', reason));
  loaded ??= import('onnxruntime-node').catch((error: unknown) => {
    loaded = null;
    throw new CairnError(
      'UNSUPPORTED',
      `The ONNX runtime could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  return loaded;
}

/**
 * A CPU session. Sequential execution and `threads` intra-op threads: on 2 cores one thread is
 * faster than two under load (2 threads were 0.75x, their spinning burns the other core).
 */
export async function createSession(path: string, threads: number): Promise<OrtSession> {
  const ort = await loadOrt();
  return ort.InferenceSession.create(path, {
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
    intraOpNumThreads: Math.max(1, threads),
    interOpNumThreads: 1,
    executionMode: 'sequential',
    enableCpuMemArena: true,
    // Idle intra-op threads sleep instead of spinning (spinning cost ~11 CPU-ms per chunk here).
    extra: { session: { intra_op: { allow_spinning: '0' } } },
  });
}

export async function int64Tensor(data: BigInt64Array, dims: number[]) {
  const ort = await loadOrt();
  return new ort.Tensor('int64', data, dims);
}
