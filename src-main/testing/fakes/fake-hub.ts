/**
 * A model hub on 127.0.0.1 with the Hugging Face resolve layout (and ModelScope's), serving files
 * the tests give it (the tiny model built by scripts/models/build_models.py). Imitates what
 * huggingface_hub's file_download.py expects of huggingface.co:
 *
 * - `GET /{repo}/resolve/{revision}/{path}`; ModelScope `GET /models/{repo}/resolve/{revision}/{path}`.
 *   Revisions: the repo's 40-hex commit, `main` (HF) or `master` (ModelScope).
 * - Large ("LFS") files: 302 to an absolute CDN URL on this server, with X-Repo-Commit,
 *   X-Linked-Etag (the SHA-256) and X-Linked-Size on the redirect itself. Small files: a relative
 *   307 to /api/resolve-cache/models/{repo}/{commit}/{path}, ETag = git blob SHA-1.
 * - Range requests: 206 with Content-Range; 416 past the end.
 * - Errors: 404 with X-Error-Code RepoNotFound | RevisionNotFound | EntryNotFound.
 *
 * Not imitated: authentication and gated repos, Xet pre-signed URL expiry, rate limits, HEAD
 * metadata-only calls (Cairn does not make them), the API endpoints (/api/models/...).
 * Faults for tests: cut a body mid-way, ignore Range, serve altered bytes, answer a status.
 */
import { createHash } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HubRepo {
  repo: string;
  commit: string;
  files: Map<string, Buffer>;
}

export interface HubRequest {
  path: string;
  range: string | null;
  status: number;
}

export interface FakeHub {
  url: string;
  requests: HubRequest[];
  /** Cuts the next `times` CDN bodies after `bytes` bytes. */
  dropAfter(bytes: number, times?: number): void;
  /** Answers Range requests with the whole file (200), like a proxy that strips the header. */
  ignoreRange(on: boolean): void;
  /** Serves `path` with its last byte changed. */
  corrupt(path: string): void;
  /** The next `times` requests whose path contains `fragment` get `status`. */
  failWith(fragment: string, status: number, times?: number): void;
  close(): Promise<void>;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const gitBlobSha1 = (data: Buffer) =>
  createHash('sha1').update(`blob ${data.length}\0`).update(data).digest('hex');

export async function startFakeHub(options: { repos: HubRepo[]; lfsThreshold?: number }): Promise<FakeHub> {
  const lfsThreshold = options.lfsThreshold ?? 10_000;
  const byHash = new Map<string, Buffer>();
  for (const repo of options.repos) for (const data of repo.files.values()) byHash.set(sha256(data), data);
  const requests: HubRequest[] = [];
  let drops: { bytes: number; times: number } | null = null;
  let ignoreRange = false;
  const corrupted = new Set<string>();
  const failures: { fragment: string; status: number; times: number }[] = [];

  const bytesOf = (path: string, data: Buffer) => {
    if (!corrupted.has(path)) return data;
    const altered = Buffer.from(data);
    altered[altered.length - 1] = (altered[altered.length - 1]! + 1) % 256;
    return altered;
  };

  function sendFile(
    range: string | undefined,
    res: ServerResponse,
    data: Buffer,
    extra: Record<string, string>,
  ) {
    const size = data.length;
    const match = ignoreRange ? null : /^bytes=(\d+)-(\d*)$/.exec(range ?? '');
    let start = 0;
    let end = size - 1;
    if (match) {
      start = Number(match[1]);
      end = match[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
      if (start >= size) {
        res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
        return 416;
      }
    }
    const status = match ? 206 : 200;
    const headers: Record<string, string> = {
      'content-type': 'application/octet-stream',
      'accept-ranges': 'bytes',
      'content-length': String(end - start + 1),
      ...extra,
    };
    if (match) headers['content-range'] = `bytes ${start}-${end}/${size}`;
    res.writeHead(status, headers);
    const body = data.subarray(start, end + 1);
    if (drops && drops.times > 0 && body.length > drops.bytes) {
      drops.times--;
      // The connection closes mid-body, as a dropped Wi-Fi connection would: the client gets exactly
      // `bytes` bytes and then an end short of Content-Length.
      res.write(body.subarray(0, drops.bytes), () => res.socket?.end());
      return status;
    }
    res.end(body);
    return status;
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://hub');
    const path = decodeURIComponent(url.pathname);
    const log = (status: number) => requests.push({ path, range: req.headers.range ?? null, status });
    const failure = failures.find((f) => f.times > 0 && path.includes(f.fragment));
    if (failure) {
      failure.times--;
      res.writeHead(failure.status).end();
      return log(failure.status);
    }
    const cdn = /^\/cdn\/([0-9a-f]{64})\/(.+)$/.exec(path);
    if (cdn) {
      const data = byHash.get(cdn[1]!);
      if (!data) return log(res.writeHead(404).end() && 404);
      return log(sendFile(req.headers.range, res, bytesOf(cdn[2]!, data), { etag: `"${cdn[1]}"` }));
    }
    const cache = /^\/api\/resolve-cache\/models\/(.+?\/.+?)\/([0-9a-f]{40})\/(.+)$/.exec(path);
    if (cache) {
      const data = options.repos.find((r) => r.repo === cache[1])?.files.get(cache[3]!);
      if (!data) return log(res.writeHead(404).end() && 404);
      return log(
        sendFile(req.headers.range, res, bytesOf(cache[3]!, data), { etag: `"${gitBlobSha1(data)}"` }),
      );
    }
    const resolve = /^\/(models\/)?(.+?\/.+?)\/resolve\/([^/]+)\/(.+)$/.exec(path);
    const repo = resolve ? options.repos.find((r) => r.repo === resolve[2]) : undefined;
    if (!resolve || !repo) {
      res.writeHead(404, { 'x-error-code': 'RepoNotFound', 'x-error-message': 'Repository not found' }).end();
      return log(404);
    }
    const revision = resolve[3]!;
    if (revision !== repo.commit && revision !== (resolve[1] ? 'master' : 'main')) {
      res.writeHead(404, { 'x-error-code': 'RevisionNotFound', 'x-error-message': 'Invalid rev id' }).end();
      return log(404);
    }
    const file = resolve[4]!;
    const data = repo.files.get(file);
    if (!data) {
      res.writeHead(404, { 'x-error-code': 'EntryNotFound', 'x-repo-commit': repo.commit }).end();
      return log(404);
    }
    if (data.length >= lfsThreshold) {
      const host = req.headers.host ?? '127.0.0.1';
      res.writeHead(302, {
        location: `http://${host}/cdn/${sha256(data)}/${encodeURIComponent(file)}`,
        'x-repo-commit': repo.commit,
        'x-linked-etag': `"${sha256(data)}"`,
        'x-linked-size': String(data.length),
        'content-length': '0',
      });
      res.end();
      return log(302);
    }
    res.writeHead(307, {
      location: `/api/resolve-cache/models/${repo.repo}/${repo.commit}/${encodeURIComponent(file)}`,
      'x-repo-commit': repo.commit,
      'content-length': '0',
    });
    res.end();
    return log(307);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    dropAfter: (bytes, times = 1) => (drops = { bytes, times }),
    ignoreRange: (on) => (ignoreRange = on),
    corrupt: (path) => corrupted.add(path),
    failWith: (fragment, status, times = 1) => failures.push({ fragment, status, times }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
