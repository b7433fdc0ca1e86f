/**
 * Feishu / Lark connector (one implementation, two hosts; docs/connectors.md "Feishu / Lark"). Lists
 * wiki spaces and nodes with the tenant token (plus My Library with the user token, plus configured
 * drive folders); reads docx as Markdown via docs/v1/content, falling back to blocks → Markdown and
 * then raw_content, and spreadsheets and bitables as Markdown tables (feishu-tables.ts); counts the
 * types no official API returns text for (mind notes, slides, legacy docs, files) as skipped; runs
 * search v2 with the user token for direct mode. Requests are paced per API at its documented limit.
 */
import type { CoreMessage, Platform } from '@shared/models';
import { PLATFORM_INFO } from '@shared/platforms';
import type { z } from 'zod';
import { CairnError, isAbortError } from '../../errors';
import type { Logger } from '../../logging/logger';
import {
  DEFERRING_CODES,
  type Connector,
  type ConnectorCapabilities,
  type ConnectorDescriptor,
  type ConnectorInit,
  type DirectHit,
  type DocumentRef,
  type FetchedDocument,
  type Limitation,
  type ListingReport,
  type UserSignIn,
  platformGap,
} from '../connector';
import { PlatformHttp, type PlatformHttpOptions, type RateWindow } from '../http/platform-http';
import { parseResponse } from '../http/response-shape';
import { docxMarkdown } from './feishu-docx';
import { searchFeishu } from './feishu-search';
import { interpretFeishu, unixSecondsToIso } from './feishu-api';
import { FeishuTenantAuth } from './feishu-auth';
import {
  itemFromNode,
  listSpaces,
  walkDriveFolder,
  walkSpace,
  type FeishuGet,
  type ListedItem,
} from './feishu-listing';
import type { FeishuWikiNode } from './feishu-schemas';
import { feishuAuthorizeUrl, signInPort, signInScopes } from './feishu-sign-in';
import { bitableToMarkdown, sheetToMarkdown, type FeishuTableAccess } from './feishu-tables';
import { FeishuUserSessions, type FeishuUserSession } from './feishu-user-session';
import { explainFeishuValidation } from './feishu-validation';
import { countOf } from '../../text/plural';

export interface FeishuConnectorOptions {
  /** Overrides of the HTTP plumbing for every client (tests shorten timeouts and backoff). */
  http?: Partial<Omit<PlatformHttpOptions, 'baseUrl' | 'logger' | 'authHeaders' | 'refreshAuth' | 'rate'>>;
  /** `api` replaces every documented per-API limit but the content one (tests lift them). */
  rates?: { api?: RateWindow; content?: RateWindow };
  /** @default 300000 */
  tokenRefreshMarginMs?: number;
  /** The user sessions of the connections this connector's factory builds for (one per connection). */
  sessions?: FeishuUserSessions;
}

const MY_LIBRARY = 'my_library';
/** Types with an official API that returns their text. */
const READABLE = new Set(['docx', 'sheet', 'bitable']);
/** Why each other type is skipped. */
const SKIP_REASONS: Record<string, string> = {
  doc: 'Legacy Feishu documents have no text API (docs/v1/content reads docx only).',
  mindnote: 'Feishu documents no API that returns a mind note’s text.',
  slides: 'Feishu documents no API that returns slides’ text.',
  file: 'Uploaded files are not read.',
};

/** Documented limits: wiki 100/min, drive files 20/s, docs content and docx 5/s, sheets query 100/min, bitable 20/s, search 100/min. */
const PER_MINUTE_100 = { intervalMs: 60_000, intervalCap: 100 };
const PER_SECOND_20 = { intervalMs: 1000, intervalCap: 20 };
const PER_SECOND_5 = { intervalMs: 1000, intervalCap: 5 };

export class FeishuConnector implements Connector {
  readonly platform: 'feishu' | 'lark';
  readonly capabilities: ConnectorCapabilities;
  readonly userSignIn: UserSignIn;
  private readonly label: string;
  private readonly logger: Logger;
  private readonly tenant: FeishuTenantAuth;
  private readonly session: FeishuUserSession;
  private readonly http: Record<'wiki' | 'drive' | 'content' | 'sheets' | 'bitable', PlatformHttp>;
  private readonly userHttp: Record<'wiki' | 'content' | 'search', PlatformHttp>;
  private readonly baseHost: string;
  private readonly appId: string;
  private readonly driveFolders: string[];
  /** What listing learned: each document's type, and which came from My Library (read with the user token). */
  private readonly kinds = new Map<string, string>();
  private readonly userOwned = new Set<string>();
  /** Space names as the search's caller (the user) sees them, loaded once for hits. */
  private searchSpaceNames: Map<string, string> | undefined;

  constructor(platform: 'feishu' | 'lark', init: ConnectorInit, options: FeishuConnectorOptions = {}) {
    this.platform = platform;
    this.label = PLATFORM_INFO[platform].label.en;
    this.logger = init.logger.child(platform);
    const override = init.config.baseUrl ? String(init.config.baseUrl).replace(/\/+$/, '') : undefined;
    const baseUrl = override ?? PLATFORM_INFO[platform].defaultBaseUrl!;
    this.baseHost = new URL(baseUrl).host;
    this.appId = String(init.config.appId ?? '');
    // The v3 token endpoint and the authorize page live on the accounts host; an overridden base URL
    // (private deployment, fake) serves them itself unless accountsBaseUrl says otherwise.
    const accounts = String(
      init.config.accountsBaseUrl ||
        override ||
        (platform === 'lark' ? 'https://accounts.larksuite.com' : 'https://accounts.feishu.cn'),
    ).replace(/\/+$/, '');
    this.driveFolders = String(init.config.driveFolderTokens ?? '')
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    const common = { baseUrl, logger: this.logger, ...options.http };
    const authHttp = new PlatformHttp({ ...common, rate: PER_SECOND_20 });
    this.tenant = new FeishuTenantAuth({
      http: authHttp,
      label: this.label,
      appId: this.appId,
      appSecret: init.secrets.appSecret,
      logger: this.logger,
      refreshMarginMs: options.tokenRefreshMarginMs,
    });
    const sessionConfig = {
      http: authHttp,
      label: this.label,
      appId: this.appId,
      appSecret: init.secrets.appSecret,
      endpoints: {
        current: `${accounts}/oauth/v3/token`,
        deprecated: `${baseUrl}/open-apis/authen/v2/oauth/token`,
      },
      refreshMarginMs: options.tokenRefreshMarginMs,
    };
    this.session = (options.sessions ?? new FeishuUserSessions()).for(
      init.connectionId,
      sessionConfig,
      init.secrets.userRefreshToken,
    );
    this.session.attach(sessionConfig, {
      logger: this.logger,
      lost: () => init.onUserAuthLost?.(),
      rotate: async (previous, next) => {
        if (init.rotateSecret) await init.rotateSecret('userRefreshToken', previous, next);
        else if (init.saveSecrets) await init.saveSecrets({ ...init.secrets, userRefreshToken: next });
        else
          this.logger.warn(
            'rotated user refresh token cannot be persisted (no secret store); kept in memory only',
          );
      },
    });
    const scopes = signInScopes(init.config.oauthScopes);
    const session = this.session;
    this.userSignIn = {
      // A getter: a bad port in config must fail the sign-in with its reason, not every sync.
      get redirectPort() {
        return signInPort(init.config.redirectPort);
      },
      authorizeUrl: ({ redirectUri, state, codeChallenge }) =>
        feishuAuthorizeUrl({
          accountsBaseUrl: accounts,
          clientId: this.appId,
          redirectUri,
          scopes,
          state,
          codeChallenge,
        }),
      exchangeCode: async (input) => ({ userRefreshToken: await session.exchangeCode(input) }),
    };
    const api = options.rates?.api;
    const tenantAuth = {
      authHeaders: async (signal?: AbortSignal) => ({
        authorization: `Bearer ${await this.tenant.token(signal)}`,
      }),
      refreshAuth: async (signal?: AbortSignal, _rejected?: Record<string, string>) =>
        void (await this.tenant.renew(signal)),
    };
    const userAuth = {
      authHeaders: async (signal?: AbortSignal) => ({
        authorization: `Bearer ${await this.session.accessToken(signal)}`,
      }),
      refreshAuth: async (signal?: AbortSignal, rejected?: Record<string, string>) =>
        void (await this.session.renew(signal, rejected?.authorization?.replace(/^Bearer /, ''))),
    };
    const content = options.rates?.content ?? PER_SECOND_5;
    const make = (auth: typeof tenantAuth, rate: RateWindow) =>
      new PlatformHttp({ ...common, ...auth, rate });
    this.http = {
      wiki: make(tenantAuth, api ?? PER_MINUTE_100),
      drive: make(tenantAuth, api ?? PER_SECOND_20),
      content: make(tenantAuth, content),
      sheets: make(tenantAuth, api ?? PER_MINUTE_100),
      bitable: make(tenantAuth, api ?? PER_SECOND_20),
    };
    this.userHttp = {
      wiki: make(userAuth, api ?? PER_MINUTE_100),
      content: make(userAuth, content),
      search: make(userAuth, api ?? PER_MINUTE_100),
    };
    const user = this.session.hasUserAuthorisation;
    this.capabilities = {
      fullText: true,
      search: user,
      experimental: false,
      limitation: feishuLimitation(this.label, user),
    };
  }

  /** A GET (or POST) of one documented endpoint through `http`, returning its checked `data`. */
  private call(http: PlatformHttp) {
    const request = async <T>(
      method: 'GET' | 'POST',
      endpoint: string,
      path: string,
      query: Record<string, string | number | undefined>,
      body: unknown,
      schema: z.ZodType<T>,
      signal: AbortSignal | undefined,
    ): Promise<T> => {
      const answer = await http.request(
        { method, path, query, body, signal },
        interpretFeishu(endpoint, this.label),
      );
      return parseResponse(schema, (answer as { data?: unknown }).data ?? {}, {
        platform: this.label,
        endpoint,
      });
    };
    const get: FeishuGet = (endpoint, path, query, schema, signal) =>
      request('GET', endpoint, path, query, undefined, schema, signal);
    return {
      get,
      post: <T>(
        endpoint: string,
        path: string,
        query: Record<string, string | number | undefined>,
        body: unknown,
        schema: z.ZodType<T>,
        signal: AbortSignal | undefined,
      ) => request('POST', endpoint, path, query, body, schema, signal),
    };
  }

  /**
   * What was found as params too (`appId`, `spaces` and the `visible`/`search` cases), so the UI
   * says the sentence in its language.
   */
  async validate(signal?: AbortSignal): Promise<CoreMessage> {
    try {
      await this.tenant.renew(signal);
      const spaces = await listSpaces(this.call(this.http.wiki).get, signal);
      const spaceNote =
        spaces.length === 0
          ? 'no knowledge space is visible yet (add the app as a member of each space to index)'
          : `${countOf(spaces.length, 'knowledge space')} visible`;
      let searchNote = `search and My Library need you to sign in with ${this.label}`;
      if (this.session.hasUserAuthorisation) {
        await this.session.accessToken(signal);
        searchNote = 'search enabled (user authorised)';
      }
      return {
        message: `Connected to ${this.label} as app ${this.appId}: ${spaceNote}; ${searchNote}.`,
        code: 'connection.feishuOk',
        params: {
          appId: this.appId,
          spaces: spaces.length,
          visible: spaces.length === 0 ? 'none' : spaces.length === 1 ? 'one' : 'some',
          search: this.session.hasUserAuthorisation ? 'on' : 'signIn',
        },
      };
    } catch (error) {
      throw explainFeishuValidation(error, this.label, this.baseHost);
    }
  }

  async *list(signal?: AbortSignal, report?: ListingReport): AsyncIterable<DocumentRef> {
    const seen = new Set<string>();
    const emit = (item: ListedItem, userOwned = false): DocumentRef | undefined => {
      if (seen.has(item.token)) return undefined;
      seen.add(item.token);
      if (!READABLE.has(item.kind)) {
        report?.skipped({
          externalId: item.token,
          title: item.title,
          kind: item.kind,
          reason: 'feishu.no-text-api',
          message:
            SKIP_REASONS[item.kind] ?? `Feishu documents no API that returns the text of a ${item.kind}.`,
        });
        return undefined;
      }
      this.kinds.set(item.token, item.kind);
      if (userOwned) this.userOwned.add(item.token);
      return {
        externalId: item.token,
        title: item.title,
        knowledgeBase: item.knowledgeBase,
        url: item.url,
        remoteUpdatedAt: unixSecondsToIso(item.editTime),
        revision: item.editTime ?? null,
      };
    };
    const tenantGet = this.call(this.http.wiki).get;
    const shortcuts: { node: FeishuWikiNode; space: string }[] = [];
    const spaces = await listSpaces(tenantGet, signal);
    for (const space of spaces) {
      const found: FeishuWikiNode[] = [];
      const name = space.name ?? space.space_id;
      for await (const node of walkSpace(tenantGet, space, found, signal)) {
        const ref = emit(itemFromNode(node, name));
        if (ref) yield ref;
      }
      shortcuts.push(...found.map((node) => ({ node, space: name })));
    }
    // A shortcut whose origin was never listed points into a space the app cannot see: list it once.
    for (const { node, space } of shortcuts) {
      const ref = emit(itemFromNode(node, space));
      if (ref) yield ref;
    }
    if (this.session.hasUserAuthorisation) yield* this.myLibrary(emit, signal, report);
    const driveGet = this.call(this.http.drive).get;
    for (const folder of this.driveFolders)
      for await (const item of walkDriveFolder(driveGet, folder, 'Drive', signal)) {
        const ref = emit(item);
        if (ref) yield ref;
      }
  }

  /** My Library needs the user token; when it cannot be listed, the rest of the connection still syncs. */
  private async *myLibrary(
    emit: (item: ListedItem, userOwned?: boolean) => DocumentRef | undefined,
    signal: AbortSignal | undefined,
    report: ListingReport | undefined,
  ): AsyncIterable<DocumentRef> {
    try {
      const get = this.call(this.userHttp.wiki).get;
      for await (const node of walkSpace(get, { space_id: MY_LIBRARY, name: 'My Library' }, [], signal)) {
        const ref = emit(itemFromNode(node, 'My Library'), true);
        if (ref) yield ref;
      }
    } catch (error) {
      if (isAbortError(error) || (error instanceof CairnError && DEFERRING_CODES.has(error.code)))
        throw error;
      if (report) report.incomplete(platformGap(error, `${this.label} My Library could not be listed`));
      else
        this.logger.warn('My Library could not be listed; the rest of the connection still syncs', { error });
    }
  }

  async fetch(ref: DocumentRef, signal?: AbortSignal): Promise<FetchedDocument> {
    const kind = this.kinds.get(ref.externalId) ?? 'docx';
    const user = this.userOwned.has(ref.externalId);
    try {
      if (kind === 'sheet')
        return { markdown: await sheetToMarkdown(this.tables(user), ref.externalId, signal) };
      if (kind === 'bitable') return await bitableToMarkdown(this.tables(user), ref.externalId, signal);
      const get = this.call(user ? this.userHttp.content : this.http.content).get;
      return { markdown: await docxMarkdown(get, ref, this.label, this.logger, signal) };
    } catch (error) {
      if (error instanceof CairnError && error.code === 'NOT_FOUND')
        throw new CairnError(
          'NOT_FOUND',
          `${this.label} document "${ref.title}" (${ref.externalId}) no longer exists; it was probably deleted after listing.`,
        );
      throw error;
    }
  }

  private tables(user: boolean): FeishuTableAccess {
    return user
      ? this.call(this.userHttp.content)
      : { get: this.call(this.http.sheets).get, post: this.call(this.http.bitable).post };
  }

  /**
   * Search v2 answers as the user, so its hits include My Library and spaces the app is not a member
   * of; get_node needs read permission on the node ("获取知识空间节点信息"), so hits are resolved, and
   * space names listed, with the user token too.
   */
  async search(query: string, options: { limit: number; signal?: AbortSignal }): Promise<DirectHit[]> {
    const wiki = this.call(this.session.hasUserAuthorisation ? this.userHttp.wiki : this.http.wiki).get;
    return searchFeishu(
      {
        post: this.call(this.userHttp.search).post,
        getNode: wiki,
        spaceNames: async (signal) =>
          this.searchSpaceNames ??
          (this.searchSpaceNames = new Map(
            (await listSpaces(wiki, signal)).map((s) => [s.space_id, s.name ?? s.space_id]),
          )),
      },
      query,
      options,
    );
  }

  dispose(): void {
    for (const http of [...Object.values(this.http), ...Object.values(this.userHttp)]) http.clear();
  }
}

/** What a Feishu/Lark connection cannot do without user authorisation (a stored user refresh token); null with it. */
export function feishuLimitation(label: string, hasUserAuthorisation: boolean): Limitation | null {
  if (hasUserAuthorisation) return null;
  return {
    code: 'feishu.no-user-auth',
    message: `${label} search and My Library need you to sign in with ${label}; listing and reading work with the app credentials.`,
  };
}

/**
 * The registry's factory. Connectors it builds for one connection share that connection's user
 * session (one refresh at a time, feishu-user-session.ts).
 */
export function createFeishuConnector(
  platform: Extract<Platform, 'feishu' | 'lark'>,
  sessions: FeishuUserSessions = new FeishuUserSessions(),
): (init: ConnectorInit) => Connector {
  return (init) => new FeishuConnector(platform, init, { sessions });
}

export function feishuDescriptor(platform: Extract<Platform, 'feishu' | 'lark'>): ConnectorDescriptor {
  return {
    platform,
    userSignIn: true,
    limitation: (_config, secretFields) =>
      feishuLimitation(PLATFORM_INFO[platform].label.en, secretFields.includes('userRefreshToken')),
    // One factory per app: the user sessions it keeps are shared by every connector of a connection.
    createFactory: () => createFeishuConnector(platform),
  };
}
