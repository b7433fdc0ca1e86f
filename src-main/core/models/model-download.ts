/**
 * `pull`: downloads a catalogued model from a hub, resumably, verifies every file's SHA-256
 * against the catalogue, and installs it atomically (model-store.ts).
 *
 * - Only pinned entries are downloaded: a file without a catalogue SHA-256 is refused (UNVERIFIED);
 *   such a model can only be imported explicitly (model-import.ts).
 * - Free disk space is checked first (what is still missing, plus 5 % and 64 MB of headroom).
 * - Partial files stay in `.downloads/<id>/`: an interrupted pull, or the next one, continues with
 *   `Range: bytes=<have>-`. A server that ignores the range (200 instead of 206) restarts the file
 *   (huggingface_hub does the same). A dropped connection is retried 3 times, resuming each time.
 * - A file whose bytes do not match is deleted and nothing is installed (CHECKSUM_MISMATCH).
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, rmSync, statfsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { open } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CairnError, isAbortError } from '../errors';
import { filesFor, isPinned, type CatalogEntry, type CatalogFile } from './catalog';
import { hubFailure, hubGet, resolveUrl, type HubEndpoint } from './hub-client';
import type { InstallRecord, ModelStore } from './model-store';

export interface PullProgress {
  id: string;
  phase: 'downloading' | 'verifying' | 'installing';
  file: string;
  doneBytes: number;
  /** Null while a file of unknown size has not answered yet. */
  totalBytes: number | null;
}

export interface PullOptions {
  store: ModelStore;
  entry: CatalogEntry;
  endpoint: HubEndpoint;
  signal?: AbortSignal;
  onProgress?: (progress: PullProgress) => void;
  /** Free bytes where models are stored. @default statfs of the store's folder */
  freeBytes?: (dir: string) => number;
  /** Resumed attempts after a dropped connection. @default 3 */
  retries?: number;
  /** Pause before a resumed attempt. @default 1000 ms, doubled each time */
  retryDelayMs?: number;
}

const MB = 1024 * 1024;

function freeBytesOf(dir: string): number {
  const stats = statfsSync(dir);
  return Number(stats.bavail) * Number(stats.bsize);
}

async function sha256Of(path: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(
    createReadStream(path),
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        done();
      },
    }),
    { signal },
  );
  return hash.digest('hex');
}

function sizeOf(path: string): number {
  return existsSync(path) ? statSync(path).size : 0;
}

/** Where the files of `entry` come from on this endpoint. ModelScope copies are tried under the same repo id unless the entry names one; the SHA-256 pins make any copy safe. */
function locate(entry: CatalogEntry, endpoint: HubEndpoint): { repo: string; revision: string } {
  if (!entry.source) throw new CairnError('UNVERIFIED', `${entry.name} has no pinned download.`);
  if (endpoint.layout === 'modelscope')
    return entry.modelScope ?? { repo: entry.source.repo, revision: 'master' };
  return entry.source;
}

interface FileJob {
  file: CatalogFile;
  url: string;
  partial: string;
}

export async function pullModel(options: PullOptions): Promise<InstallRecord> {
  const { store, entry, endpoint, signal } = options;
  if (!isPinned(entry)) {
    const unknown = filesFor(entry)
      .filter((f) => f.sha256 === null)
      .map((f) => f.path);
    throw new CairnError(
      'UNVERIFIED',
      `${entry.name} cannot be downloaded: no checksum is known for ${unknown.join(', ') || 'its revision'}. ` +
        `Export or copy the files yourself, then: cairn models import ${entry.id} <folder> --allow-unverified`,
      { details: { unverifiedFiles: unknown } },
    );
  }
  const { repo, revision } = locate(entry, endpoint);
  const partialDir = store.partialDirOf(entry.id);
  mkdirSync(partialDir, { recursive: true });
  const jobs: FileJob[] = filesFor(entry).map((file) => ({
    file,
    url: resolveUrl(endpoint, repo, revision, file.path),
    partial: join(partialDir, file.path),
  }));

  const known = jobs.filter((job) => job.file.size !== null);
  const missing = known.reduce((sum, job) => sum + Math.max(0, job.file.size! - sizeOf(job.partial)), 0);
  const free = (options.freeBytes ?? freeBytesOf)(store.root);
  const needed = Math.ceil(missing * 1.05) + 64 * MB;
  if (free < needed)
    throw new CairnError(
      'DISK_FULL',
      `${entry.name} needs ${Math.ceil(needed / MB)} MB free in ${store.root}; ${Math.floor(free / MB)} MB are available.`,
      { details: { neededBytes: needed, freeBytes: free } },
    );

  const total = jobs.every((job) => job.file.size !== null)
    ? jobs.reduce((s, j) => s + j.file.size!, 0)
    : null;
  let before = 0;
  const report = (phase: PullProgress['phase'], file: string, doneInFile: number) =>
    options.onProgress?.({ id: entry.id, phase, file, doneBytes: before + doneInFile, totalBytes: total });

  const verified = new Map<string, string>();
  for (const job of jobs) {
    const retries = options.retries ?? 3;
    for (let attempt = 0; ; attempt++) {
      try {
        await downloadFile(job, entry, signal, (done) => report('downloading', job.file.path, done));
        break;
      } catch (error) {
        if (!(error instanceof CairnError) || error.code !== 'DOWNLOAD_INTERRUPTED' || attempt >= retries)
          throw error;
        await sleep((options.retryDelayMs ?? 1000) * 2 ** attempt, signal);
      }
    }
    report('verifying', job.file.path, sizeOf(job.partial));
    const digest = await sha256Of(job.partial, signal);
    if (digest !== job.file.sha256) {
      rmSync(job.partial, { force: true });
      throw new CairnError(
        'CHECKSUM_MISMATCH',
        `${job.file.path} of ${entry.name} has SHA-256 ${digest}, not the catalogue's ${job.file.sha256}: the file was deleted and nothing was installed.`,
        { details: { file: job.file.path, expected: job.file.sha256, actual: digest } },
      );
    }
    verified.set(job.file.path, job.partial);
    before += sizeOf(job.partial);
  }
  report('installing', '', 0);
  // Sizes are read before the files move into place.
  const record = store.install(entry.id, verified, {
    origin: { kind: 'download', where: `${endpoint.base}/${repo}`, revision },
    files: jobs.map((job) => ({
      path: job.file.path,
      size: sizeOf(job.partial),
      sha256: job.file.sha256!,
      verified: true,
    })),
  });
  rmSync(partialDir, { recursive: true, force: true });
  return record;
}

async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new CairnError('CANCELLED', 'Download cancelled.'));
      },
      { once: true },
    );
  });
}

async function downloadFile(
  job: FileJob,
  entry: CatalogEntry,
  signal: AbortSignal | undefined,
  progress: (done: number) => void,
): Promise<void> {
  const { file, partial } = job;
  mkdirSync(dirname(partial), { recursive: true });
  let offset = sizeOf(partial);
  if (file.size !== null && offset > file.size) {
    rmSync(partial, { force: true });
    offset = 0;
  }
  if (file.size !== null && offset === file.size) return;
  const what = `${file.path} of ${entry.name}`;
  const { response, linkedSize } = await hubGet(job.url, {
    headers: offset > 0 ? { range: `bytes=${offset}-` } : {},
    signal,
  });
  if (response.status === 416) {
    // Our partial is not a prefix the server recognises: start the file again.
    await response.body?.cancel();
    rmSync(partial, { force: true });
    throw new CairnError(
      'DOWNLOAD_INTERRUPTED',
      `${what}: the server refused to resume; starting the file again.`,
    );
  }
  if (response.status !== 200 && response.status !== 206) throw await hubFailure(response, what);
  if (linkedSize !== null && file.size !== null && linkedSize !== file.size) {
    await response.body?.cancel();
    throw new CairnError(
      'CHECKSUM_MISMATCH',
      `${what}: the hub serves ${linkedSize} bytes, the catalogue pins ${file.size}; is the mirror serving another revision? Nothing was installed.`,
    );
  }
  if (response.status === 206) {
    const range = /^bytes (\d+)-\d+\/(?:\d+|\*)$/.exec(response.headers.get('content-range') ?? '');
    if (!range || Number(range[1]) !== offset) {
      await response.body?.cancel();
      rmSync(partial, { force: true });
      throw new CairnError(
        'DOWNLOAD_INTERRUPTED',
        `${what}: the server resumed at the wrong place; starting the file again.`,
      );
    }
  } else offset = 0; // 200: the range was ignored, the whole file follows.
  if (!response.body) throw new CairnError('SOURCE_ERROR', `${what}: the hub sent no body.`);
  let done = offset;
  progress(done);
  let lastReport = 0;
  // Every chunk is on disk before the next is read: a connection that dies keeps all it delivered
  // (a stream pipeline would drop the writes still buffered when it tears down).
  const handle = await open(partial, offset > 0 ? 'a' : 'w');
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      await handle.write(chunk);
      done += chunk.length;
      const now = Date.now();
      if (now - lastReport > 200) {
        lastReport = now;
        progress(done);
      }
    }
  } catch (error) {
    if (signal?.aborted || isAbortError(error))
      throw new CairnError('CANCELLED', 'Download cancelled; the next pull resumes it.');
    if ((error as NodeJS.ErrnoException).code === 'ENOSPC')
      throw new CairnError(
        'DISK_FULL',
        `The disk filled up while downloading ${what}; free some space and pull again to resume.`,
      );
    throw new CairnError(
      'DOWNLOAD_INTERRUPTED',
      `${what}: the connection was lost after ${done} bytes; pull again to resume.`,
    );
  } finally {
    await handle.close();
  }
  progress(done);
  const size = sizeOf(partial);
  if (file.size !== null && size < file.size)
    throw new CairnError(
      'DOWNLOAD_INTERRUPTED',
      `${what}: got ${size} of ${file.size} bytes; pull again to resume.`,
    );
}
