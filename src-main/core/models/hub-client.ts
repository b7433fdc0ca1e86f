/**
 * Requests to a model hub with the Hugging Face resolve layout (huggingface.co, a mirror with the
 * same layout such as hf-mirror.com) or ModelScope's. Behaviour follows huggingface_hub
 * (file_download.py `http_get`, `get_hf_file_metadata`; utils/_http.py):
 *
 * - `GET {endpoint}/{repo}/resolve/{revision}/{path}`; ModelScope `{endpoint}/models/{repo}/resolve/{revision}/{path}`.
 * - Redirects are followed by hand: small files may answer a relative 307 on the same host, large
 *   (LFS/Xet) files a 302 to a CDN. The hub's headers (X-Repo-Commit, X-Linked-Size, X-Linked-Etag)
 *   are on that first response, so they are kept from it. An Authorization header is never sent to
 *   another host (huggingface_hub PR #4739).
 * - `Accept-Encoding: identity`, so sizes and ranges are of the file itself.
 * - Errors: 404 with X-Error-Code RepoNotFound | RevisionNotFound | EntryNotFound; 401/403 gated.
 */
import { CairnError } from '../errors';

export type HubLayout = 'huggingface' | 'modelscope';

export interface HubEndpoint {
  /** e.g. https://huggingface.co, https://hf-mirror.com, https://modelscope.cn */
  base: string;
  layout: HubLayout;
}

export const HUGGING_FACE: HubEndpoint = { base: 'https://huggingface.co', layout: 'huggingface' };
export const MODELSCOPE: HubEndpoint = { base: 'https://modelscope.cn', layout: 'modelscope' };

/** A mirror URL as the setting, CAIRN_MODEL_MIRROR or --mirror give it; ModelScope's host uses its own layout. */
export function endpointFromUrl(url: string): HubEndpoint {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new CairnError('INVALID_ARGUMENT', `The model mirror must be an http(s) URL, not "${url}".`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new CairnError('INVALID_ARGUMENT', `The model mirror must be an http(s) URL, not "${url}".`);
  const base = parsed.href.replace(/\/+$/, '');
  return /(^|\.)modelscope\.cn$/.test(parsed.hostname)
    ? { base, layout: 'modelscope' }
    : { base, layout: 'huggingface' };
}

export function resolveUrl(endpoint: HubEndpoint, repo: string, revision: string, path: string): string {
  const file = path.split('/').map(encodeURIComponent).join('/');
  const prefix = endpoint.layout === 'modelscope' ? `${endpoint.base}/models` : endpoint.base;
  return `${prefix}/${repo}/resolve/${encodeURIComponent(revision)}/${file}`;
}

export interface HubResponse {
  response: Response;
  /** Headers the hub put on its first answer (before any redirect to a CDN). */
  linkedSize: number | null;
  commit: string | null;
  url: string;
}

const CONNECT_ERRORS = [
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
];

function errorCode(error: unknown): string {
  const cause = (error as { cause?: { code?: string } })?.cause;
  return cause?.code ?? (error as { code?: string })?.code ?? '';
}

/** GET with redirects followed by hand (at most 5). Throws SOURCE_UNREACHABLE when nothing answers. */
export async function hubGet(
  url: string,
  options: { headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<HubResponse> {
  let current = new URL(url);
  const origin = current.host;
  let linkedSize: number | null = null;
  let commit: string | null = null;
  for (let hop = 0; hop <= 5; hop++) {
    const headers: Record<string, string> = { 'accept-encoding': 'identity', ...options.headers };
    if (current.host !== origin) delete headers['authorization'];
    let response: Response;
    try {
      response = await fetch(current, { headers, redirect: 'manual', signal: options.signal });
    } catch (error) {
      if (options.signal?.aborted) throw new CairnError('CANCELLED', 'Download cancelled.');
      const code = errorCode(error);
      if (CONNECT_ERRORS.includes(code))
        throw new CairnError(
          'SOURCE_UNREACHABLE',
          `Cannot reach ${current.host} (${code}): check the network, or choose a mirror (setting, CAIRN_MODEL_MIRROR or --mirror).`,
        );
      throw new CairnError(
        'DOWNLOAD_INTERRUPTED',
        `The connection to ${current.host} failed (${code || (error as Error).message}); pull again to resume.`,
      );
    }
    const size = response.headers.get('x-linked-size');
    if (linkedSize === null && size && /^\d+$/.test(size)) linkedSize = Number(size);
    commit ??= response.headers.get('x-repo-commit');
    if ([301, 302, 303, 307, 308].includes(response.status)) {
      const location = response.headers.get('location');
      await response.body?.cancel();
      if (!location) throw new CairnError('SOURCE_ERROR', `${current.host} redirected without a Location.`);
      current = new URL(location, current);
      continue;
    }
    return { response, linkedSize, commit, url: current.href };
  }
  throw new CairnError('SOURCE_ERROR', `Too many redirects for ${url}.`);
}

/** A hub's refusal as a CairnError naming the file and the hub's own error code. */
export async function hubFailure(response: Response, what: string): Promise<CairnError> {
  const reason = response.headers.get('x-error-code') ?? response.headers.get('x-error-message') ?? '';
  await response.body?.cancel();
  if (response.status === 404)
    return new CairnError('NOT_FOUND', `${what}: not found on this hub (404${reason ? ` ${reason}` : ''}).`, {
      details: { status: 404, hubError: reason || null },
    });
  if (response.status === 401 || response.status === 403)
    return new CairnError(
      'PERMISSION_DENIED',
      `${what}: the hub refused access (${response.status}${reason ? ` ${reason}` : ''}).`,
    );
  if (response.status === 429)
    return new CairnError('RATE_LIMITED', `${what}: the hub asks to slow down (429); try again later.`);
  return new CairnError('SOURCE_ERROR', `${what}: the hub answered HTTP ${response.status}.`);
}
