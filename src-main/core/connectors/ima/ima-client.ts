/**
 * HTTP access to Tencent IMA's agent OpenAPI: POST-only JSON actions under /openapi/wiki/v1 and
 * /openapi/note/v1, header auth, the `{code, msg, data}` envelope (some clients read
 * `retcode`/`errmsg`), and IMA's uncertain error codes mapped to Cairn codes (connectors.md §4).
 * Every fact here is [S]/[U]: no vendor page documents the API outside the ima skill package.
 */
import { CairnError } from '../../errors';
import type { Logger } from '../../logging/logger';
import {
  PlatformHttp,
  type Interpretation,
  type PlatformHttpOptions,
  type RawResponse,
} from '../http/platform-http';

export type ImaHttpTuning = Partial<
  Pick<
    PlatformHttpOptions,
    'rate' | 'concurrency' | 'timeoutMs' | 'maxRetries' | 'backoffBaseMs' | 'backoffMaxMs'
  >
>;

/**
 * IMA's codes (docs/connectors.md "IMA"): from the ima skill package text (the vendor's only API
 * documentation, read through third-party copies) where it names them, else from third-party clients.
 */
/** Too many requests for now: back off and retry. 200001 "请求频率超限，请稍后重试" [3P clients]; 110021 [3P]. */
const RATE_LIMIT_CODES = new Set([110021, 200001]);
/** The day's quota is spent: 200005 "请求超量，请明日再试" (HTTP 403 or 200) [3P clients]; 220021 [3P]. */
const QUOTA_CODES = new Set([220021, 200005]);
/** 110030 [3P]; 220030 no permission (e.g. export not enabled for an agent-interface key) [skill]; 210005 not the note's author [skill]. */
const PERMISSION_CODES = new Set([110030, 220030, 210005]);
/** 51 (e.g. a KB list limit above 20), 210001 parameter error [skill]; 110001 bad parameters [3P]. */
const BAD_ARGUMENT_CODES = new Set([51, 110001, 210001]);
/** 210035 notebook not found [skill]. */
const NOT_FOUND_CODES = new Set([210035]);
/** 210009 content too large [skill]. */
const TOO_LARGE_CODE = 210009;
/** "Please upgrade the skill": the client (its `ima-openapi-ctx: skill_version`) is too old [3P, U]. */
export const CLIENT_TOO_OLD_CODE = -200;

/**
 * The skill version Cairn names in `ima-openapi-ctx: skill_version=…` when IMA asks for a newer
 * client: the official ima skill package whose OpenAPI description Cairn follows,
 * app-dl.ima.qq.com/skills/ima-skills-1.1.10.zip (that file name and the package's `ima_api.cjs`
 * sending `ima-openapi-ctx: skill_version=<ver>` are known from third-party reports only [3P]). No
 * source shows the header is required: one third-party adapter reports correct credentials work
 * without it, so Cairn sends it only after IMA answered CLIENT_TOO_OLD_CODE (docs/connectors.md "IMA").
 */
export const IMA_SKILL_VERSION = '1.1.10';
const AUTH_MESSAGE = /auth|api ?key|client ?id|unauthori[sz]ed|鉴权|认证|授权/i;
const NOT_FOUND_MESSAGE = /not (?:found|exist)|不存在|已删除|deleted/i;
const QUOTA_MESSAGE = /请求超量|明日再试/;
const RATE_MESSAGE = /请求频率超限|稍后重试/;

export interface ImaClientOptions {
  baseUrl: string;
  clientId: string;
  apiKey: string;
  logger: Logger;
  /** Requests per second; IMA publishes no limit, so stay conservative. @default 1 */
  requestsPerSecond?: number;
  /** The version named in `ima-openapi-ctx` once IMA asks for a newer client. @default IMA_SKILL_VERSION */
  skillVersion?: string;
  http?: ImaHttpTuning;
}

interface Envelope {
  code?: number | string;
  retcode?: number | string;
  msg?: string;
  errmsg?: string;
  data?: unknown;
}

function envelopeOf(json: unknown): { code: number; rawCode: unknown; msg: string; data: unknown } | null {
  if (json === undefined || json === null || typeof json !== 'object') return null;
  const body = json as Envelope;
  const rawCode = body.code ?? body.retcode ?? 0;
  return { code: Number(rawCode), rawCode, msg: body.msg ?? body.errmsg ?? '', data: body.data };
}

/**
 * Turns an IMA answer into ok / retry / error. IMA signals in the body `code`; HTTP 403 also
 * carries a body worth reading: third-party clients see 403 with 200005 "请求超量，请明日再试" (the
 * day's quota: the sync defers the rest) and 403 with "请求频率超限" (back off). Exported for tests.
 */
export function interpretIma(response: RawResponse): Interpretation<unknown> {
  const envelope = envelopeOf(response.json);
  if (response.status === 429)
    return { kind: 'retry', code: 'RATE_LIMITED', message: 'IMA rate limit reached (HTTP 429).' };
  if (response.status >= 500)
    return { kind: 'retry', code: 'SOURCE_ERROR', message: `IMA server error (HTTP ${response.status}).` };
  if (response.status === 404 || response.status === 405)
    return {
      kind: 'error',
      error: new CairnError(
        'UNSUPPORTED',
        `IMA does not offer this action here (HTTP ${response.status}); check the base URL.`,
      ),
    };
  if (response.status !== 200 && !(response.status === 403 && envelope && envelope.code !== 0))
    return {
      kind: 'error',
      error: new CairnError('SOURCE_ERROR', `IMA refused the request (HTTP ${response.status}).`),
    };
  if (!envelope)
    return {
      kind: 'retry',
      code: 'SOURCE_ERROR',
      message: 'IMA returned a response that is not valid JSON.',
    };
  const { code, rawCode, msg } = envelope;
  if (code === 0 && !QUOTA_MESSAGE.test(msg)) return { kind: 'ok', value: envelope.data ?? {} };
  const detail = `IMA code ${String(rawCode)}${msg ? `: ${msg}` : ''}${response.status === 403 ? ', HTTP 403' : ''}`;
  const fail = (
    errorCode: ConstructorParameters<typeof CairnError>[0],
    message: string,
  ): Interpretation<unknown> => ({
    kind: 'error',
    error: new CairnError(errorCode, message, { details: { imaCode: code } }),
  });
  if (QUOTA_CODES.has(code) || QUOTA_MESSAGE.test(msg))
    return fail(
      'QUOTA_EXCEEDED',
      `IMA's daily request quota is used up (${detail}); the sync stops here and carries on tomorrow.`,
    );
  if (RATE_LIMIT_CODES.has(code) || RATE_MESSAGE.test(msg))
    return { kind: 'retry', code: 'RATE_LIMITED', message: `IMA rate limit reached (${detail}).` };
  if (code === 210005)
    return fail('PERMISSION_DENIED', `IMA lets only a note's author export it (${detail}).`);
  if (PERMISSION_CODES.has(code)) return fail('PERMISSION_DENIED', `IMA denied access (${detail}).`);
  if (code === CLIENT_TOO_OLD_CODE)
    return fail('UNSUPPORTED', `IMA says this client is too old for its OpenAPI (${detail}).`);
  if (BAD_ARGUMENT_CODES.has(code))
    return fail('INVALID_ARGUMENT', `IMA rejected the request parameters (${detail}).`);
  if (code === TOO_LARGE_CODE) return fail('UNSUPPORTED', `IMA says the content is too large (${detail}).`);
  if (NOT_FOUND_CODES.has(code)) return fail('NOT_FOUND', `IMA says it does not exist (${detail}).`);
  if (AUTH_MESSAGE.test(msg)) {
    return fail(
      'AUTH_INVALID',
      `IMA rejected the client ID or API key (${detail}). If they are right, authorise the key again at https://ima.qq.com/agent-interface.`,
    );
  }
  if (NOT_FOUND_MESSAGE.test(msg)) return fail('NOT_FOUND', `IMA says it does not exist (${detail}).`);
  return fail('SOURCE_ERROR', `IMA reported an error (${detail}).`);
}

function isClientTooOld(error: unknown): boolean {
  return error instanceof CairnError && error.details?.imaCode === CLIENT_TOO_OLD_CODE;
}

export class ImaClient {
  private readonly api: PlatformHttp;
  /** Signed download links get only the headers IMA echoed, never our API key. */
  private readonly plain: PlatformHttp;
  /** Once the daily quota is hit, every later call fails at once instead of hammering IMA. */
  private quotaError: CairnError | null = null;
  /** Set once IMA answered "client too old": from then on every call names the skill version. */
  private sendSkillVersion = false;
  private readonly skillVersion: string;

  constructor(options: ImaClientOptions) {
    const perSecond = options.requestsPerSecond ?? 1;
    const common = {
      baseUrl: options.baseUrl,
      logger: options.logger,
      rate: { intervalMs: 1000, intervalCap: perSecond },
      concurrency: Math.max(1, Math.min(4, perSecond)),
      ...options.http,
    };
    this.skillVersion = options.skillVersion ?? IMA_SKILL_VERSION;
    const headers = { 'ima-openapi-clientid': options.clientId, 'ima-openapi-apikey': options.apiKey };
    this.api = new PlatformHttp({
      ...common,
      authHeaders: async () =>
        this.sendSkillVersion
          ? { ...headers, 'ima-openapi-ctx': `skill_version=${this.skillVersion}` }
          : headers,
    });
    this.plain = new PlatformHttp(common);
  }

  /**
   * Calls one action, e.g. `wiki/v1/search_knowledge_base`; returns the envelope's `data`. When IMA
   * answers that the client is too old, the call is made once more naming the skill version; if IMA
   * still refuses, the error says so plainly (reason `ima.client-too-old`, for the card).
   */
  async call(action: string, body: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
    if (this.quotaError) throw this.quotaError;
    const ask = () =>
      this.api.request({ method: 'POST', path: `/openapi/${action}`, body, signal }, interpretIma);
    try {
      try {
        return await ask();
      } catch (error) {
        if (!isClientTooOld(error) || this.sendSkillVersion) throw error;
        this.sendSkillVersion = true;
        return await ask();
      }
    } catch (error) {
      if (error instanceof CairnError && error.code === 'QUOTA_EXCEEDED') this.quotaError = error;
      if (isClientTooOld(error))
        throw new CairnError(
          'UNSUPPORTED',
          `${(error as CairnError).message} Cairn named IMA skill version ${this.skillVersion} and IMA still asks for a newer client: update Cairn.`,
          {
            details: {
              imaCode: CLIENT_TOO_OLD_CODE,
              reason: 'ima.client-too-old',
              params: { version: this.skillVersion },
            },
          },
        );
      throw error;
    }
  }

  /** Downloads a signed file link with the headers IMA returned for it. */
  async download(
    link: string,
    headers: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<{ text: string; contentType: string }> {
    const url = new URL(link);
    // The query (signature) goes separately, so retry logs name only the host and path.
    const request = {
      path: `${url.origin}${url.pathname}`,
      query: Object.fromEntries(url.searchParams),
      headers: { accept: '*/*', ...headers },
      signal,
    };
    return this.plain.request(request, (res) => {
      if (res.status >= 200 && res.status < 300)
        return { kind: 'ok', value: { text: res.text, contentType: res.headers.get('content-type') ?? '' } };
      if (res.status === 404)
        return { kind: 'error', error: new CairnError('NOT_FOUND', 'The IMA file is gone.') };
      if (res.status === 401 || res.status === 403)
        return {
          kind: 'error',
          error: new CairnError(
            'SOURCE_ERROR',
            `The IMA download link was refused (HTTP ${res.status}); it may have expired.`,
          ),
        };
      return {
        kind: 'retry',
        code: 'SOURCE_ERROR',
        message: `Downloading the IMA file failed (HTTP ${res.status}).`,
      };
    });
  }

  clear(): void {
    this.api.clear();
    this.plain.clear();
  }
}
