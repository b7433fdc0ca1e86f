/**
 * Yuque (语雀) connector: X-Auth-Token against the Open API v2 (docs/connectors.md "Yuque"). Lists
 * the user's and the user's teams' knowledge bases, pages their docs with offset/limit until
 * meta.total, reads each base's TOC for the documents' places, fetches each doc's text as
 * Markdown, and runs Yuque's own search for direct mode. Every answer is checked against the
 * official spec's shape for its endpoint (yuque-schemas.ts); requests are paced, and when Yuque
 * answers 429 the sync defers the rest (yuque-api.ts). The base URL may be a site or space root
 * (`/api/v2` is appended) or the full API URL.
 */
import type { CoreMessage } from '@shared/models';
import { PLATFORM_INFO } from '@shared/platforms';
import type { z } from 'zod';
import { CairnError } from '../../errors';
import type { Logger } from '../../logging/logger';
import type {
  Connector,
  ConnectorCapabilities,
  ConnectorInit,
  DirectHit,
  DocumentRef,
  FetchedDocument,
  ConnectorDescriptor,
  ListingReport,
} from '../connector';
import {
  PlatformHttp,
  type HttpRequest,
  type PlatformHttpOptions,
  type RateWindow,
} from '../http/platform-http';
import { parseResponse } from '../http/response-shape';
import { interpretYuque, stripEmphasis, yuqueApiBase } from './yuque-api';
import { listYuqueDocuments, reposOf, TOKEN_HELP, type YuqueListingContext } from './yuque-listing';
import { yuqueDocToMarkdown } from './yuque-markdown';
import { DocDetailAnswer, SearchAnswer, UserAnswer, type YuqueDocDetail } from './yuque-schemas';
import { parseTablePage, tablePagesToMarkdown, type TablePage } from './yuque-tables';
import { countOf } from '../../text/plural';

export interface YuqueConnectorOptions {
  /** Overrides of the HTTP plumbing (tests shorten timeouts and backoff, or lift the pacing). */
  http?: Partial<Omit<PlatformHttpOptions, 'baseUrl' | 'logger' | 'authHeaders' | 'refreshAuth'>>;
}

/** Fixed by Yuque; not a parameter (spec: /api/v2/search "PageSize 固定为 20"). */
const SEARCH_PAGE_SIZE = 20;
/** The spec's maximum page_size for data-table rows. */
const TABLE_PAGE_SIZE = 200;
/** At most this many table pages per document, so one huge table cannot take a sync's requests. */
const MAX_TABLE_PAGES = 200;

/**
 * Cairn's own pace, not a documented Yuque quota (the spec documents a 429 and no number): 80 a
 * minute and 5 a second keep a long sync from bursting. One that still meets a 429 defers its
 * remaining documents to the next sync.
 */
export function yuquePacing(perSecond: number): RateWindow[] {
  return [
    { intervalMs: 60_000, intervalCap: 80 },
    { intervalMs: 1000, intervalCap: perSecond },
  ];
}

export class YuqueConnector implements Connector {
  readonly platform = 'yuque' as const;
  readonly capabilities: ConnectorCapabilities = {
    fullText: true,
    search: true,
    experimental: false,
    limitation: null,
  };
  private readonly http: PlatformHttp;
  private readonly logger: Logger;
  private readonly baseUrl: string;
  private readonly token: string | undefined;
  /** Document id → its place in the TOC, learned while listing. */
  private readonly breadcrumbs = new Map<string, string[]>();

  constructor(init: ConnectorInit, options: YuqueConnectorOptions = {}) {
    this.logger = init.logger.child('yuque');
    this.baseUrl = yuqueApiBase(init.config.baseUrl, PLATFORM_INFO.yuque.defaultBaseUrl!);
    this.token = init.secrets.token;
    const perSecond = Number(init.config.rateLimitPerSecond) || 5;
    this.http = new PlatformHttp({
      baseUrl: this.baseUrl,
      logger: this.logger,
      rate: yuquePacing(perSecond),
      authHeaders: async () => {
        if (!this.token)
          throw new CairnError('AUTH_INVALID', `No Yuque token is stored for this connection. ${TOKEN_HELP}`);
        return { 'x-auth-token': this.token };
      },
      ...options.http,
    });
  }

  /** The site origin documents live on: the API host without /api/v2 (team hosts and private deployments included). */
  private get siteOrigin(): string {
    return new URL(this.baseUrl).origin;
  }

  /** GET one endpoint and check its answer; `endpoint` is the spec's path template, for messages. */
  private async get<T>(
    endpoint: string,
    path: string,
    query: HttpRequest['query'],
    schema: z.ZodType<T>,
    signal: AbortSignal | undefined,
  ): Promise<T> {
    const what = `GET /api/v2${endpoint}`;
    const body = await this.http.request({ path, query, signal }, interpretYuque(what));
    return parseResponse(schema, body, { platform: 'Yuque', endpoint: what });
  }

  /**
   * The account and the count as params too (`login`, `name`, `account` named/login, `repos`), so
   * the UI says the sentence in its language around the names Yuque returned.
   */
  async validate(signal?: AbortSignal): Promise<CoreMessage> {
    let who: string;
    try {
      const user = (await this.get('/user', '/user', undefined, UserAnswer, signal)).data;
      who = user?.login ?? (user?.id !== null && user?.id !== undefined ? String(user.id) : '');
      if (!who)
        throw new CairnError('UNEXPECTED_RESPONSE', 'Yuque answered GET /api/v2/user without a login or id.');
      const named = user?.name && user.name !== who ? user.name : null;
      const name = named ? `${named} (${who})` : who;
      const { repos } = await reposOf(this.listingContext(), 'users', who, signal);
      return {
        message: `Connected to Yuque as ${name}; ${countOf(repos.length, 'personal knowledge base')} visible, team knowledge bases are listed on sync.`,
        code: 'connection.yuqueOk',
        params: {
          login: who,
          name: named ?? who,
          account: named ? 'named' : 'login',
          repos: repos.length,
          visible: repos.length === 1 ? 'one' : 'some',
        },
      };
    } catch (error) {
      throw explainValidation(error, this.baseUrl);
    }
  }

  private listingContext(): YuqueListingContext {
    return { get: this.get.bind(this), logger: this.logger, siteOrigin: this.siteOrigin };
  }

  async *list(signal?: AbortSignal, report?: ListingReport): AsyncIterable<DocumentRef> {
    for await (const listed of listYuqueDocuments(this.listingContext(), signal, report)) {
      if (listed.breadcrumb.length > 0) this.breadcrumbs.set(listed.ref.externalId, listed.breadcrumb);
      yield listed.ref;
    }
  }

  async fetch(ref: DocumentRef, signal?: AbortSignal): Promise<FetchedDocument> {
    const path = `/repos/docs/${encodeURIComponent(ref.externalId)}`;
    let detail: YuqueDocDetail | null | undefined;
    let tables: string | null = null;
    try {
      detail = (await this.get('/repos/docs/{id}', path, undefined, DocDetailAnswer, signal)).data;
      if (detail?.type === 'Table' && detail.body_table)
        tables = await this.allTablePages(path, detail.body_table, signal);
    } catch (error) {
      if (error instanceof CairnError && error.code === 'NOT_FOUND')
        throw new CairnError(
          'NOT_FOUND',
          `Yuque document "${ref.title}" (${ref.externalId}) no longer exists; it was probably deleted after listing.`,
        );
      throw error;
    }
    if (!detail)
      throw new CairnError(
        'UNEXPECTED_RESPONSE',
        `Yuque answered GET /api/v2/repos/docs/{id} for "${ref.title}" without data.`,
        { details: { platform: 'Yuque', endpoint: 'GET /api/v2/repos/docs/{id}', field: 'data' } },
      );
    return {
      markdown: yuqueDocToMarkdown(detail, tables),
      title: detail.title ?? ref.title,
      breadcrumb: this.breadcrumbs.get(ref.externalId),
    };
  }

  /**
   * A data table's rows come in pages (page/page_size on the detail endpoint, "数据表使用"). The
   * first page came with the plain detail request; the next ones keep its page size, so no row is
   * skipped or read twice.
   */
  private async allTablePages(
    path: string,
    first: string,
    signal: AbortSignal | undefined,
  ): Promise<string | null> {
    const pages: TablePage[] = [];
    let page = parseTablePage(first);
    const size = page?.pageSize ?? page?.records?.length ?? 0;
    for (let number = 1; page; number++) {
      pages.push(page);
      const rows = pages.reduce((sum, p) => sum + (p.records?.length ?? 0), 0);
      if ((page.records?.length ?? 0) === 0 || rows >= (page.totalCount ?? 0) || number >= MAX_TABLE_PAGES)
        break;
      const next = await this.get(
        '/repos/docs/{id}',
        path,
        { page: number + 1, page_size: Math.min(size, TABLE_PAGE_SIZE) },
        DocDetailAnswer,
        signal,
      );
      page = next.data?.body_table ? parseTablePage(next.data.body_table) : null;
    }
    return tablePagesToMarkdown(pages);
  }

  async search(query: string, options: { limit: number; signal?: AbortSignal }): Promise<DirectHit[]> {
    const q = [...query.trim()].slice(0, 200).join(''); // the spec caps q at 200 characters
    if (!q) return [];
    const hits: DirectHit[] = [];
    for (let page = 1; hits.length < options.limit && page <= 100; page++) {
      const answer = await this.get(
        '/search',
        '/search',
        { type: 'doc', q, page },
        SearchAnswer,
        options.signal,
      );
      for (const result of answer.data) {
        const id = result.target?.id ?? result.id;
        if (id === null || id === undefined) continue;
        hits.push({
          externalId: String(id),
          title: stripEmphasis(result.title ?? result.target?.title ?? ''),
          snippet: stripEmphasis(result.summary ?? ''),
          url: result.url ? new URL(result.url, this.siteOrigin).toString() : null,
          knowledgeBase:
            result.target?.book?.name ??
            stripEmphasis(result.info ?? '')
              .split(' / ')
              .pop() ??
            '',
        });
      }
      const total = answer.meta?.total ?? 0;
      if (answer.data.length < SEARCH_PAGE_SIZE || page * SEARCH_PAGE_SIZE >= total) break;
    }
    return hits.slice(0, options.limit);
  }

  dispose(): void {
    this.http.clear();
  }
}

/** Rewrites a failed "Test connection" into a message that says what to fix. */
function explainValidation(error: unknown, baseUrl: string): unknown {
  if (!(error instanceof CairnError)) return error;
  const host = new URL(baseUrl).host;
  switch (error.code) {
    case 'AUTH_INVALID':
      return new CairnError(
        'AUTH_INVALID',
        `Yuque rejected the token (wrong, revoked or expired). ${TOKEN_HELP}`,
      );
    case 'NOT_FOUND':
      return new CairnError(
        'AUTH_INVALID',
        `Yuque at ${host} does not know this token (HTTP 404 on /user). A team token only works on its space host: set the base URL to https://<space>.yuque.com/api/v2.`,
      );
    case 'PERMISSION_DENIED':
      return new CairnError(
        'PERMISSION_DENIED',
        `The Yuque token is not allowed to read the account or its knowledge bases. Create a token with read access to repos and docs. ${TOKEN_HELP}`,
      );
    case 'SOURCE_UNREACHABLE':
    case 'TIMEOUT':
      return new CairnError(
        error.code,
        `Cannot reach Yuque at ${host}: check the base URL (${baseUrl}) and your network. (${error.message})`,
      );
    default:
      return error;
  }
}

export function createYuqueConnector(init: ConnectorInit): Connector {
  return new YuqueConnector(init);
}

export const yuqueDescriptor: ConnectorDescriptor = {
  platform: 'yuque',
  userSignIn: false,
  limitation: () => null,
  createFactory: () => createYuqueConnector,
};
