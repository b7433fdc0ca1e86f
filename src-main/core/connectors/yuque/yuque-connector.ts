/**
 * Yuque (语雀) connector: X-Auth-Token against the Open API v2 (connectors.md §2). Lists the user's
 * and the user's teams' knowledge bases, pages their docs with offset/limit until meta.total,
 * fetches each doc's body as Markdown, and runs Yuque's own search for direct mode.
 */
import { PLATFORM_INFO } from '@shared/platforms';
import { CairnError, throwIfAborted } from '../../errors';
import type { Logger } from '../../logging/logger';
import type {
  Connector,
  ConnectorCapabilities,
  ConnectorInit,
  DirectHit,
  DocumentRef,
  FetchedDocument,
  ConnectorDescriptor,
} from '../connector';
import { PlatformHttp, type HttpRequest, type PlatformHttpOptions } from '../http/platform-http';
import {
  interpretYuque,
  stripEmphasis,
  type YuqueBook,
  type YuqueDoc,
  type YuqueSearchResult,
  type YuqueUser,
} from './yuque-api';
import { yuqueDocToMarkdown, type YuqueDocDetail } from './yuque-markdown';

export interface YuqueConnectorOptions {
  /** Overrides of the HTTP plumbing (tests shorten timeouts and backoff). */
  http?: Partial<Omit<PlatformHttpOptions, 'baseUrl' | 'logger' | 'authHeaders' | 'refreshAuth'>>;
}

/** Yuque caps both list endpoints at 100 per page (connectors.md §2.2). */
const PAGE_LIMIT = 100;
/** Fixed by Yuque; not a parameter (connectors.md §2.2). */
const SEARCH_PAGE_SIZE = 20;
const TOKEN_HELP =
  'Create a token at https://www.yuque.com/settings/tokens (API tokens need a paid membership); a team token must use the team’s space host as base URL, e.g. https://<space>.yuque.com/api/v2.';

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

  constructor(init: ConnectorInit, options: YuqueConnectorOptions = {}) {
    this.logger = init.logger.child('yuque');
    this.baseUrl = String(init.config.baseUrl || PLATFORM_INFO.yuque.defaultBaseUrl).replace(/\/+$/, '');
    this.token = init.secrets.token;
    const perSecond = Number(init.config.rateLimitPerSecond) || 5;
    this.http = new PlatformHttp({
      baseUrl: this.baseUrl,
      logger: this.logger,
      // The documented quota is 5000 requests/hour per account (connectors.md §2.4); 5/s smooths
      // bursts and a 429 beyond the hourly budget is retried with backoff.
      rate: { intervalMs: 1000, intervalCap: perSecond },
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

  private async get<T>(
    path: string,
    query: HttpRequest['query'],
    signal: AbortSignal | undefined,
  ): Promise<{ data: T; meta?: { total?: number } }> {
    return this.http.request({ path, query, signal }, interpretYuque<T>(`GET ${path}`));
  }

  async validate(signal?: AbortSignal): Promise<string> {
    let user: YuqueUser;
    try {
      user = (await this.get<YuqueUser>('/user', undefined, signal)).data;
    } catch (error) {
      throw explainValidation(error, this.baseUrl);
    }
    try {
      const repos = await this.reposOf('users', user.login, signal);
      return `Connected to Yuque as ${user.name ?? user.login} (${user.login}); ${repos.length} personal knowledge base(s) visible, team knowledge bases are listed on sync.`;
    } catch (error) {
      if (error instanceof CairnError && error.code === 'PERMISSION_DENIED') {
        throw new CairnError(
          'PERMISSION_DENIED',
          `The Yuque token signs in as ${user.login} but cannot read knowledge bases. Create a token with read access to repos and docs. ${TOKEN_HELP}`,
        );
      }
      throw explainValidation(error, this.baseUrl);
    }
  }

  private async reposOf(
    kind: 'users' | 'groups',
    login: string,
    signal: AbortSignal | undefined,
  ): Promise<YuqueBook[]> {
    const repos: YuqueBook[] = [];
    for (let offset = 0; ; offset += PAGE_LIMIT) {
      const page =
        (
          await this.get<YuqueBook[]>(
            `/${kind}/${encodeURIComponent(login)}/repos`,
            { offset, limit: PAGE_LIMIT },
            signal,
          )
        ).data ?? [];
      repos.push(...page);
      if (page.length < PAGE_LIMIT) return repos;
    }
  }

  private async groupsOf(login: string, signal: AbortSignal | undefined): Promise<YuqueUser[]> {
    const groups: YuqueUser[] = [];
    // Group pages are fixed at 100 (connectors.md §2.2): a short page is the last one.
    for (let offset = 0; ; offset += PAGE_LIMIT) {
      const page =
        (await this.get<YuqueUser[]>(`/users/${encodeURIComponent(login)}/groups`, { offset }, signal))
          .data ?? [];
      groups.push(...page);
      if (page.length < PAGE_LIMIT) return groups;
    }
  }

  async *list(signal?: AbortSignal): AsyncIterable<DocumentRef> {
    const user = (await this.get<YuqueUser>('/user', undefined, signal)).data;
    const books = new Map<number, YuqueBook>();
    for (const book of await this.reposOf('users', user.login, signal)) books.set(book.id, book);
    for (const group of await this.groupsOf(user.login, signal)) {
      for (const book of await this.reposOf('groups', group.login, signal)) books.set(book.id, book);
    }
    for (const book of books.values()) {
      let total = Number.POSITIVE_INFINITY;
      for (let offset = 0; offset < total; offset += PAGE_LIMIT) {
        throwIfAborted(signal);
        const page = await this.get<YuqueDoc[]>(
          `/repos/${book.id}/docs`,
          { offset, limit: PAGE_LIMIT },
          signal,
        );
        total = page.meta?.total ?? 0;
        const docs = page.data ?? [];
        for (const doc of docs) yield this.toRef(doc, book);
        if (docs.length === 0) break; // never loop on a total that disagrees with the pages
      }
    }
  }

  private toRef(doc: YuqueDoc, book: YuqueBook): DocumentRef {
    return {
      externalId: String(doc.id),
      title: doc.title,
      knowledgeBase: book.name,
      url: `${this.siteOrigin}/${book.namespace}/${doc.slug}`,
      remoteUpdatedAt: doc.content_updated_at ?? doc.updated_at ?? null,
      // updated_at also moves on a rename, which the index must see.
      revision: doc.updated_at ?? doc.content_updated_at ?? null,
    };
  }

  async fetch(ref: DocumentRef, signal?: AbortSignal): Promise<FetchedDocument> {
    let detail: YuqueDocDetail;
    try {
      detail = (
        await this.get<YuqueDocDetail>(`/repos/docs/${encodeURIComponent(ref.externalId)}`, undefined, signal)
      ).data;
    } catch (error) {
      if (error instanceof CairnError && error.code === 'NOT_FOUND')
        throw new CairnError(
          'NOT_FOUND',
          `Yuque document "${ref.title}" (${ref.externalId}) no longer exists; it was probably deleted after listing.`,
        );
      throw error;
    }
    return { markdown: yuqueDocToMarkdown(detail), title: detail.title ?? ref.title };
  }

  async search(query: string, options: { limit: number; signal?: AbortSignal }): Promise<DirectHit[]> {
    const q = query.trim();
    if (!q) return [];
    const hits: DirectHit[] = [];
    for (let page = 1; hits.length < options.limit && page <= 100; page++) {
      const answer = await this.get<YuqueSearchResult[]>('/search', { type: 'doc', q, page }, options.signal);
      const results = answer.data ?? [];
      for (const result of results) {
        hits.push({
          externalId: String(result.target?.id ?? result.id),
          title: stripEmphasis(result.title),
          snippet: stripEmphasis(result.summary),
          url: result.url ? new URL(result.url, this.siteOrigin).toString() : null,
          knowledgeBase: result.target?.book?.name ?? stripEmphasis(result.info).split(' / ').pop() ?? '',
        });
      }
      const total = answer.meta?.total ?? 0;
      if (results.length < SEARCH_PAGE_SIZE || page * SEARCH_PAGE_SIZE >= total) break;
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
        `The Yuque token is not allowed to read the account. ${TOKEN_HELP}`,
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
