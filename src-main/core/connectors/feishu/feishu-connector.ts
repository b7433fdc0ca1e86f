/**
 * Feishu / Lark connector (one implementation, two hosts: connectors.md §1). Lists wiki spaces and
 * nodes with the tenant token (plus My Library with the user token, plus configured drive
 * folders), fetches Markdown via docs/v1/content with a blocks → Markdown then raw_content
 * fallback, and runs search v2 with the user token for direct mode.
 */
import type { Platform } from '@shared/models';
import { PLATFORM_INFO } from '@shared/platforms';
import { CairnError } from '../../errors';
import type { Logger } from '../../logging/logger';
import type {
  Connector,
  ConnectorCapabilities,
  ConnectorInit,
  DirectHit,
  DocumentRef,
  FetchedDocument,
  Limitation,
  UserSignIn,
  ConnectorDescriptor,
} from '../connector';
import { docxBlocksToMarkdown, type DocxBlock } from './blocks-to-markdown';
import {
  interpretFeishu,
  stripHighlight,
  unixSecondsToIso,
  type FeishuEnvelope,
  type FeishuSearchUnit,
  type FeishuSpace,
  type FeishuWikiNode,
} from './feishu-api';
import { FeishuAuth } from './feishu-auth';
import {
  docxFromNode,
  listSpaces,
  walkDriveFolder,
  walkSpace,
  type FeishuGet,
  type ListedDocx,
} from './feishu-listing';
import { feishuAuthorizeUrl, signInPort, signInScopes } from './feishu-sign-in';
import { explainFeishuValidation } from './feishu-validation';
import { PlatformHttp, type PlatformHttpOptions } from '../http/platform-http';

export interface FeishuConnectorOptions {
  /** Overrides of the HTTP plumbing for every client (tests shorten timeouts and backoff). */
  http?: Partial<Omit<PlatformHttpOptions, 'baseUrl' | 'logger' | 'authHeaders' | 'refreshAuth' | 'rate'>>;
  /** @default { api: {intervalMs: 60000, intervalCap: 100}, content: {intervalMs: 1000, intervalCap: 5} } */
  rates?: { api?: PlatformHttpOptions['rate']; content?: PlatformHttpOptions['rate'] };
  /** @default 300000 */
  tokenRefreshMarginMs?: number;
}

/** Search v2 rejects longer queries with 99992402 (connectors.md §1.3). */
const MAX_QUERY_CHARS = 30;
const SEARCH_PAGE_SIZE = 20;
const MY_LIBRARY = 'my_library';
const FALLBACK_CODES = new Set(['SOURCE_ERROR', 'PERMISSION_DENIED', 'UNSUPPORTED']);

export class FeishuConnector implements Connector {
  readonly platform: 'feishu' | 'lark';
  readonly capabilities: ConnectorCapabilities;
  readonly userSignIn: UserSignIn;
  private readonly label: string;
  private readonly logger: Logger;
  private readonly auth: FeishuAuth;
  private readonly tenantHttp: PlatformHttp;
  private readonly contentHttp: PlatformHttp;
  private readonly userHttp: PlatformHttp;
  private readonly baseHost: string;
  private readonly appId: string;
  private readonly driveFolders: string[];
  /** Documents listed from My Library are read with the user token. */
  private readonly userOwned = new Set<string>();
  private spaceNames: Map<string, string> | undefined;

  constructor(platform: 'feishu' | 'lark', init: ConnectorInit, options: FeishuConnectorOptions = {}) {
    this.platform = platform;
    this.label = PLATFORM_INFO[platform].label.en;
    this.logger = init.logger.child(platform);
    const override = init.config.baseUrl ? String(init.config.baseUrl).replace(/\/+$/, '') : undefined;
    const baseUrl = override ?? PLATFORM_INFO[platform].defaultBaseUrl!;
    this.baseHost = new URL(baseUrl).host;
    this.appId = String(init.config.appId ?? '');
    // The v3 OAuth endpoint lives on the accounts host; an overridden base URL (private deployment,
    // fake) serves it itself unless accountsBaseUrl says otherwise.
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
    const api = options.rates?.api ?? { intervalMs: 60_000, intervalCap: 100 }; // wiki APIs: 100/min
    const authHttp = new PlatformHttp({ ...common, rate: { intervalMs: 1000, intervalCap: 20 } });
    this.auth = new FeishuAuth({
      http: authHttp,
      label: this.label,
      appId: this.appId,
      appSecret: init.secrets.appSecret,
      oauthTokenUrl: `${accounts}/oauth/v3/token`,
      secrets: init.secrets,
      saveSecrets: init.saveSecrets,
      onUserAuthLost: init.onUserAuthLost,
      logger: this.logger,
      refreshMarginMs: options.tokenRefreshMarginMs,
    });
    // The authorize page is on the accounts host too (obtain-oauth-code page), so a fake or a
    // private deployment behind the base URL override serves both.
    const scopes = signInScopes(init.config.oauthScopes);
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
      exchangeCode: async (input) => ({ userRefreshToken: await this.auth.exchangeCode(input) }),
    };
    const tenantAuth = {
      authHeaders: async (signal?: AbortSignal) => ({
        authorization: `Bearer ${await this.auth.tenantToken(signal)}`,
      }),
      refreshAuth: async (signal?: AbortSignal) => void (await this.auth.renewTenant(signal)),
    };
    this.tenantHttp = new PlatformHttp({ ...common, ...tenantAuth, rate: api });
    this.contentHttp = new PlatformHttp({
      ...common,
      ...tenantAuth,
      rate: options.rates?.content ?? { intervalMs: 1000, intervalCap: 5 },
    }); // docs/v1/content: 5/s
    this.userHttp = new PlatformHttp({
      ...common,
      rate: api,
      authHeaders: async (signal) => ({ authorization: `Bearer ${await this.auth.userToken(signal)}` }),
      refreshAuth: async (signal) => void (await this.auth.renewUser(signal)),
    });
    const user = this.auth.hasUserAuthorisation;
    this.capabilities = {
      fullText: true,
      search: user,
      experimental: false,
      limitation: feishuLimitation(this.label, user),
    };
  }

  private getter(http: PlatformHttp): FeishuGet {
    return async <T>(
      path: string,
      query: Record<string, string | number | undefined>,
      signal: AbortSignal | undefined,
    ) =>
      (
        await http.request(
          { path, query, signal },
          interpretFeishu<FeishuEnvelope<T>>(`GET ${path}`, this.label),
        )
      ).data;
  }

  async validate(signal?: AbortSignal): Promise<string> {
    try {
      await this.auth.renewTenant(signal);
      const spaces = await listSpaces(this.getter(this.tenantHttp), signal);
      const spaceNote =
        spaces.length === 0
          ? 'no knowledge space is visible yet (add the app as a member of each space to index)'
          : `${spaces.length} knowledge space(s) visible`;
      let searchNote = `search and My Library need you to sign in with ${this.label}`;
      if (this.auth.hasUserAuthorisation) {
        await this.auth.renewUser(signal);
        searchNote = 'search enabled (user authorised)';
      }
      return `Connected to ${this.label} as app ${this.appId}: ${spaceNote}; ${searchNote}.`;
    } catch (error) {
      throw explainFeishuValidation(error, this.label, this.baseHost);
    }
  }

  async *list(signal?: AbortSignal): AsyncIterable<DocumentRef> {
    const seen = new Set<string>();
    const emit = (doc: ListedDocx): DocumentRef | undefined => {
      if (seen.has(doc.objToken)) return undefined;
      seen.add(doc.objToken);
      return {
        externalId: doc.objToken,
        title: doc.title,
        knowledgeBase: doc.knowledgeBase,
        url: doc.url,
        remoteUpdatedAt: unixSecondsToIso(doc.editTime),
        revision: doc.editTime ?? null,
      };
    };
    const tenantGet = this.getter(this.tenantHttp);
    const shortcuts: { node: FeishuWikiNode; space: string }[] = [];
    const spaces = await listSpaces(tenantGet, signal);
    this.spaceNames = new Map(spaces.map((s) => [s.space_id, s.name]));
    for (const space of spaces) {
      const found: FeishuWikiNode[] = [];
      for await (const node of walkSpace(tenantGet, space, found, signal)) {
        const ref = emit(docxFromNode(node, space.name));
        if (ref) yield ref;
      }
      shortcuts.push(...found.map((node) => ({ node, space: space.name })));
    }
    // A shortcut whose origin was never listed points into a space the app cannot see: list it once.
    for (const { node, space } of shortcuts) {
      if (node.obj_type !== 'docx') continue;
      const ref = emit(docxFromNode(node, space));
      if (ref) yield ref;
    }
    if (this.auth.hasUserAuthorisation) {
      try {
        for await (const node of walkSpace(
          this.getter(this.userHttp),
          { space_id: MY_LIBRARY, name: 'My Library' },
          [],
          signal,
        )) {
          const ref = emit(docxFromNode(node, 'My Library'));
          if (ref) {
            this.userOwned.add(ref.externalId);
            yield ref;
          }
        }
      } catch (error) {
        if (error instanceof CairnError && error.code === 'CANCELLED') throw error;
        this.logger.warn('My Library could not be listed; the rest of the connection still syncs', {
          code: error instanceof CairnError ? error.code : 'INTERNAL',
          message: error instanceof Error ? error.message : String(error),
        });
      }
    }
    for (const folder of this.driveFolders) {
      for await (const doc of walkDriveFolder(tenantGet, folder, 'Drive', signal)) {
        const ref = emit(doc);
        if (ref) yield ref;
      }
    }
  }

  async fetch(ref: DocumentRef, signal?: AbortSignal): Promise<FetchedDocument> {
    const user = this.userOwned.has(ref.externalId);
    const id = encodeURIComponent(ref.externalId);
    const attempts: [string, () => Promise<string>][] = [
      [
        'docs/v1/content',
        async () =>
          (
            await this.getter(user ? this.userHttp : this.contentHttp)<{ content: string }>(
              '/open-apis/docs/v1/content',
              { doc_token: ref.externalId, doc_type: 'docx', content_type: 'markdown' },
              signal,
            )
          ).content,
      ],
      ['blocks', async () => docxBlocksToMarkdown(await this.allBlocks(id, user, signal))],
      [
        'raw_content',
        async () =>
          (
            await this.getter(user ? this.userHttp : this.tenantHttp)<{ content: string }>(
              `/open-apis/docx/v1/documents/${id}/raw_content`,
              {},
              signal,
            )
          ).content,
      ],
    ];
    const failures: string[] = [];
    for (const [name, attempt] of attempts) {
      try {
        return { markdown: await attempt() };
      } catch (error) {
        if (!(error instanceof CairnError)) throw error;
        if (error.code === 'NOT_FOUND')
          throw new CairnError(
            'NOT_FOUND',
            `${this.label} document "${ref.title}" (${ref.externalId}) no longer exists; it was probably deleted after listing.`,
          );
        if (!FALLBACK_CODES.has(error.code)) throw error;
        failures.push(`${name}: ${error.message}`);
        this.logger.info('export path failed; trying the next one', {
          document: ref.externalId,
          path: name,
          code: error.code,
        });
      }
    }
    throw new CairnError(
      'DOCUMENT_FAILED',
      `${this.label} document "${ref.title}" could not be read as text. ${failures.join(' ')}`,
    );
  }

  private async allBlocks(id: string, user: boolean, signal: AbortSignal | undefined): Promise<DocxBlock[]> {
    const get = this.getter(user ? this.userHttp : this.tenantHttp);
    const blocks: DocxBlock[] = [];
    let pageToken: string | undefined;
    for (;;) {
      const page = await get<{ items?: DocxBlock[]; has_more?: boolean; page_token?: string }>(
        `/open-apis/docx/v1/documents/${id}/blocks`,
        { page_size: 500, document_revision_id: -1, page_token: pageToken },
        signal,
      );
      blocks.push(...(page.items ?? []));
      if (!page.has_more || !page.page_token || page.page_token === pageToken) return blocks;
      pageToken = page.page_token;
    }
  }

  async search(query: string, options: { limit: number; signal?: AbortSignal }): Promise<DirectHit[]> {
    const q = [...query.trim()].slice(0, MAX_QUERY_CHARS).join('');
    if (!q || options.limit <= 0) return [];
    const units: FeishuSearchUnit[] = [];
    let pageToken: string | undefined;
    while (units.length < options.limit) {
      const body = {
        query: q,
        page_size: Math.min(SEARCH_PAGE_SIZE, options.limit - units.length),
        page_token: pageToken,
        doc_filter: {},
        wiki_filter: {},
      };
      const answer = await this.userHttp.request(
        { method: 'POST', path: '/open-apis/search/v2/doc_wiki/search', body, signal: options.signal },
        interpretFeishu<
          FeishuEnvelope<{ res_units?: FeishuSearchUnit[]; has_more?: boolean; page_token?: string }>
        >('POST /open-apis/search/v2/doc_wiki/search', this.label),
      );
      units.push(...(answer.data.res_units ?? []));
      if (!answer.data.has_more || !answer.data.page_token || answer.data.page_token === pageToken) break;
      pageToken = answer.data.page_token;
    }
    return Promise.all(units.slice(0, options.limit).map((unit) => this.toHit(unit, options.signal)));
  }

  /** Wiki hits carry the node token; get_node gives the docx id (the listing's externalId) and the space. */
  private async toHit(unit: FeishuSearchUnit, signal: AbortSignal | undefined): Promise<DirectHit> {
    const token = unit.result_meta?.token ?? '';
    const hit: DirectHit = {
      externalId: token,
      title: stripHighlight(unit.title_highlighted),
      snippet: stripHighlight(unit.summary_highlighted),
      url: unit.result_meta?.url ?? null,
      knowledgeBase: unit.entity_type === 'WIKI' ? 'Wiki' : 'Drive',
    };
    if (unit.entity_type !== 'WIKI' || !token) return hit;
    try {
      const get = this.getter(this.tenantHttp);
      const { node } = await get<{ node: FeishuWikiNode }>(
        '/open-apis/wiki/v2/spaces/get_node',
        { token },
        signal,
      );
      const names =
        this.spaceNames ??
        (this.spaceNames = new Map(
          (await listSpaces(get, signal)).map((s: FeishuSpace) => [s.space_id, s.name]),
        ));
      return {
        ...hit,
        externalId: node.obj_token,
        knowledgeBase: names.get(node.space_id) ?? hit.knowledgeBase,
      };
    } catch (error) {
      if (error instanceof CairnError && error.code === 'CANCELLED') throw error;
      return hit;
    }
  }

  dispose(): void {
    for (const http of [this.tenantHttp, this.contentHttp, this.userHttp]) http.clear();
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

export function createFeishuConnector(
  platform: Extract<Platform, 'feishu' | 'lark'>,
): (init: ConnectorInit) => Connector {
  return (init) => new FeishuConnector(platform, init);
}

export function feishuDescriptor(platform: Extract<Platform, 'feishu' | 'lark'>): ConnectorDescriptor {
  return {
    platform,
    userSignIn: true,
    limitation: (_config, secretFields) =>
      feishuLimitation(PLATFORM_INFO[platform].label.en, secretFields.includes('userRefreshToken')),
    createFactory: () => createFeishuConnector(platform),
  };
}
