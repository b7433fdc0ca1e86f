/**
 * A fake Feishu / Lark open platform on 127.0.0.1 (same paths on both platforms; `platform` only
 * changes the document URL host), imitating what docs/connectors.md "Feishu / Lark" lists with its
 * pages. The accounts host (authorize page, v3 token endpoint) is served on this same origin.
 *
 * Imitated: POST /open-apis/auth/v3/tenant_access_token/internal (same token while ≥ 30 min remain,
 * HTTP 200 with 10014/10003 for a wrong secret/app id); the user sign-in: GET
 * /open-apis/authen/v1/authorize (auto-approve, deny or an Approve/Deny page, see
 * feishu-code-grant-fake.ts) and POST /oauth/v3/token (current) and /open-apis/authen/v2/oauth/token
 * (deprecated) with grant_type=authorization_code or refresh_token (feishu-auth-fake.ts: single-use
 * rotating refresh tokens, the old access token's one-minute grace, 20026/20037/20064/20070/20073/20074);
 * Bearer checks on every call (99991661/99991663/99991668/99991677; search answers HTTP 401 1274011
 * for a bad user token and 99991663 for a tenant token); the {code,msg,data} envelope; wiki spaces,
 * nodes (page_size ≤ 50, page_token/has_more, an empty first page with has_more:true,
 * has_child/parent_node_token, sheet/bitable/file/mindnote/slides/doc nodes, a node without `url`,
 * a shortcut node), get_node, My Library (space_id=my_library, user token only); drive/v1/files
 * (next_page_token; a sheet file); docs/v1/content (doc_type=docx&content_type=markdown only, 5/s
 * enforced; 403 2889902 no permission, 403 2889906 deleted, 400 2889914 unknown token, 500 2889925
 * over 10 MB); docx documents, blocks (paged; 403 1770032 refused), raw_content; sheets v3 sheets/query
 * and v2 values/:range; bitable tables and records/search; search v2 doc_wiki (user token only,
 * query ≤ 50 chars, page_size ≤ 20, <h> tags, 429 1277001 when limited); rate limiting as HTTP 429
 * (or 400 in legacy mode) with x-ogw-ratelimit-* and code 99991400; the monthly quota 99991403.
 * Scopes: a user token carries the scopes its sign-in granted; the sheets, bitable and docs content
 * APIs refuse a user token with none of the scopes their page lists with 99991679 and
 * `error.permission_violations[].subject` (the shape the official CLI reads, larksuite/cli
 * cmd/root.go). Visibility: get_node answers only for a node the caller can read ("获取知识空间节点
 *信息": the caller needs read permission), so My Library and a space hidden from the app
 * (`hideSpaceFromApp`) resolve only with the user token; the wiki space list leaves a hidden space
 * out for the app. Bitables: `setBitableRows` sizes a table; `hideBitableRows` answers it as a table
 * under advanced permissions the caller cannot read does: success with no records ("查询记录": 调用
 * 成功但返回数据为空).
 *
 * Not imitated: the sign-in's login and consent screens, scope checks against the app's enabled
 * scopes (20027), scope checks on endpoints other than sheets, bitable and docs content, app
 * availability (20010), OAuth v3 client_credentials, JWT user tokens, per-API limits other than
 * docs/v1/content, node permissions finer than a whole space, the subject list of a tenant token's
 * 99991672 beyond what `revokeScope` sends, search v1, search filters (accepted, ignored), block kinds beyond headings/text/lists/
 * code/tables, and the HTTP status of auth errors and of 99991403, which the pages do not state
 * ([U]; here 400). 131006 for My Library with a tenant token is [U].
 */
import {
  FaultInjector,
  highlightSnippet,
  startFakeServer,
  type Fault,
  type FakeRequest,
  type FakeResponse,
  type FaultOptions,
  type RecordedRequest,
} from './fake-server';
import { FeishuAuthFake, type Caller } from './feishu-auth-fake';
import type { ConsentMode } from './feishu-code-grant-fake';
import { createCorpus, type CorpusOptions, type FixtureDocument } from './fixtures/corpus';
import {
  DRIVE_KB,
  docNode,
  docToken,
  extraNodes,
  layOutTree,
  MY_LIBRARY_KB,
  seconds,
  spaceId,
  toDocxBlocks,
  type WikiNode,
} from './fixtures/feishu-shapes';
import { FixtureStore, type DocumentChange, type NewFixtureDocument } from './fixtures/fixture-store';
import { blocksToMarkdown, blocksToPlainText, blocksToSearchText } from './fixtures/markup';

export interface FeishuFakeOptions extends CorpusOptions {
  /** Only changes the host of document URLs. @default 'feishu' */
  platform?: 'feishu' | 'lark';
  appId?: string;
  appSecret?: string;
  userRefreshToken?: string;
  /** @default 7200 */
  tokenTtlSeconds?: number;
  /** Documents in the drive folder tree. @default 4 */
  driveDocuments?: number;
  /** Documents in the user's My Library. @default 2 */
  myLibraryDocuments?: number;
  /** Non-docx nodes and a shortcut in the spaces. @default true */
  extraNodes?: boolean;
  /** Serve the blocks endpoint in pages of at most this many. @default 500 */
  blockPageSize?: number;
  /** A spreadsheet and a bitable in My Library (user token only). @default false */
  myLibraryTables?: boolean;
  /** The scopes of the fixture's user refresh token. @default every scope the served pages list */
  userScopes?: string;
}

/**
 * The scopes each user-token route accepts ("开启其中任意一项权限即可调用"): the pages "获取工作表" and
 * "读取单个范围" (plus sheets:spreadsheet:read, which the official CLI asks for them, larksuite/cli
 * shortcuts/sheets/sheet_info.go and sheet_read.go), "列出数据表", "查询记录", "获取云文档内容".
 */
const SHEETS_SCOPES = [
  'drive:drive',
  'drive:drive:readonly',
  'sheets:spreadsheet',
  'sheets:spreadsheet:readonly',
  'sheets:spreadsheet:read',
];
const BITABLE_TABLES_SCOPES = ['base:table:read', 'bitable:app', 'bitable:app:readonly'];
const BITABLE_RECORDS_SCOPES = ['base:record:retrieve', 'bitable:app', 'bitable:app:readonly'];
const DOCS_CONTENT_SCOPES = ['docs:document.content:read'];

/** A user who granted everything the served pages need. */
const ALL_USER_SCOPES = [
  'offline_access',
  'search:docs:read',
  'wiki:wiki:readonly',
  'docx:document:readonly',
  ...DOCS_CONTENT_SCOPES,
  'sheets:spreadsheet:readonly',
  'bitable:app:readonly',
].join(' ');

export interface FeishuFakeControl {
  store: FixtureStore;
  requests: RecordedRequest[];
  inject(fault: Fault, options?: FaultOptions): void;
  /** Rate-limit faults answer HTTP 400 instead of 429, like some older Feishu APIs. */
  useLegacyRateLimitStatus(legacy: boolean): void;
  expireTokens(): void;
  expireRefreshTokens(): void;
  /** Wiki/docs calls answer 99991672 (the app lacks the scope). */
  revokeScope(revoked: boolean): void;
  /** The app is not a member of this space: the tenant token neither lists it nor reads its nodes. */
  hideSpaceFromApp(knowledgeBase: number): void;
  /** The bitable's one table holds this many records (generated). @default 2 */
  setBitableRows(appToken: string, count: number): void;
  /** The bitable answers records/search with success and no records (advanced permissions). */
  hideBitableRows(appToken: string): void;
  /** The My Library spreadsheet and bitable tokens (with `myLibraryTables`). */
  readonly myLibraryTables: { sheet: string; bitable: string };
  /** docs/v1/content refuses this document (2889925, over 10 MB); with `blocks`, the blocks endpoint too (1770001). */
  breakExport(fixtureId: number, options?: { blocks?: boolean }): void;
  /** The app has no permission on this document (docs/v1/content 2889902, blocks 1770032). */
  denyDocument(fixtureId: number): void;
  /** Every open-apis call answers 99991403 (the month's API calls are used up). */
  exhaustMonthlyQuota(exhausted: boolean): void;
  /** The current refresh token is revoked (20064). */
  revokeRefreshToken(): void;
  /** "Refresh user_access_token" is switched off in the console (20074). */
  allowRefresh(allowed: boolean): void;
  /** Serve the v3 token endpoint (false: 404, only the deprecated v2 one works). */
  serveV3(served: boolean): void;
  /** Old user access tokens lose their one-minute grace now. */
  endGracePeriods(): void;
  readonly latestRefreshToken: string;
  /** How the authorize page answers: redirect with a code at once (default), refuse, or show Approve / Deny. */
  setConsent(mode: ConsentMode): void;
  /** Redirect URLs the "console" has registered (exact match); null accepts any. */
  registerRedirectUris(uris: string[] | null): void;
  /** Every authorization code issued so far is past its 5 minutes. */
  expireAuthorizationCodes(): void;
  changeDocument(fixtureId: number, change: DocumentChange): void;
  deleteDocument(fixtureId: number): void;
  addDocument(input?: NewFixtureDocument): number;
  vanishAfterListing(fixtureId: number): void;
  externalIdOf(fixtureId: number): string;
}

export interface FeishuFake {
  baseUrl: string;
  credentials: { appId: string; appSecret: string; userRefreshToken: string; driveFolderTokens: string };
  control: FeishuFakeControl;
  close(): Promise<void>;
}

export const DRIVE_ROOT = 'fldcnCairnDriveRoot000000001';
const DRIVE_SUB = 'fldcnCairnDriveSub0000000002';
const CONTENT_RATE_PER_SECOND = 5;
const ok = (data: unknown): FakeResponse => ({ status: 200, body: { code: 0, msg: 'success', data } });
const fail = (status: number, code: number, msg: string): FakeResponse => ({ status, body: { code, msg } });
const invalidField = (msg: string) => fail(400, 99992402, `field validation failed: ${msg}`);
const encodeToken = (offset: number) => Buffer.from(`offset:${offset}`).toString('base64url');
const decodeToken = (token: string | null) =>
  token ? Number(Buffer.from(token, 'base64url').toString().split(':')[1]) : 0;

function paged<T>(
  items: T[],
  url: URL,
  max: number,
  fallback: number,
): { items: T[]; has_more: boolean; page_token?: string } | FakeResponse {
  const size = Number(url.searchParams.get('page_size') ?? fallback);
  if (!Number.isInteger(size) || size < 1 || size > max) return invalidField(`page_size must be 1..${max}`);
  const offset = decodeToken(url.searchParams.get('page_token'));
  if (!Number.isInteger(offset) || offset < 0) return invalidField('page_token is invalid');
  const slice = items.slice(offset, offset + size);
  const more = offset + size < items.length;
  return more
    ? { items: slice, has_more: true, page_token: encodeToken(offset + size) }
    : { items: slice, has_more: false };
}

export async function startFeishuFake(options: FeishuFakeOptions = {}): Promise<FeishuFake> {
  const platform = options.platform ?? 'feishu';
  const host = platform === 'lark' ? 'https://cairn-demo.larksuite.com' : 'https://cairn-demo.feishu.cn';
  const credentials = {
    appId: options.appId ?? 'cli_cairnfake0001',
    appSecret: options.appSecret ?? 'fake-app-secret-0123456789abcdef',
    userRefreshToken: options.userRefreshToken ?? 'ur-fake-initial-refresh-token-0001',
    driveFolderTokens: DRIVE_ROOT,
  };
  const auth = new FeishuAuthFake({
    ...credentials,
    tokenTtlSeconds: options.tokenTtlSeconds ?? 7200,
    userScopes: options.userScopes ?? ALL_USER_SCOPES,
  });
  const store = new FixtureStore(options);
  for (const [kb, count, seed] of [
    [DRIVE_KB, options.driveDocuments ?? 4, 2],
    [MY_LIBRARY_KB, options.myLibraryDocuments ?? 2, 3],
  ] as const) {
    for (const extra of createCorpus({ documents: count, seed }).documents)
      store.add({
        knowledgeBase: kb,
        title: `${extra.title} (${kb === DRIVE_KB ? '云盘' : '我的文档库'})`,
        blocks: extra.blocks,
      });
  }
  const faults = new FaultInjector();
  const brokenExports = new Map<string, { blocks: boolean }>();
  const deniedDocuments = new Set<string>();
  let monthlyQuotaExhausted = false;
  const contentCalls: number[] = [];
  let legacyRateLimit = false;
  let scopeRevoked = false;
  const hiddenSpaces = new Set<string>();
  const bitableRows = new Map<string, number>();
  const hiddenBitableRows = new Set<string>();
  const now = Date.now();
  const myLibraryTables = { sheet: 'sheetCairn90000', bitable: 'bitableCairn90003' };

  /** With `myLibraryTables`: a spreadsheet and a bitable at the root of My Library. */
  function myLibraryExtras(): WikiNode[] {
    if (!options.myLibraryTables) return [];
    return extraNodes('my_library', host, now, 90_000).filter(
      (node) => node.obj_type === 'sheet' || node.obj_type === 'bitable',
    );
  }

  function spaceNodes(kb: number): WikiNode[] {
    const space = kb === MY_LIBRARY_KB ? 'my_library' : spaceId(kb);
    const nodes = layOutTree(store.list(kb), space, host);
    if (kb === MY_LIBRARY_KB) return nodes.concat(myLibraryExtras());
    if (options.extraNodes === false || kb >= DRIVE_KB) return nodes;
    const firstOfSpace0 = store.list(0)[0];
    const shortcut =
      kb === Math.min(1, store.knowledgeBases.length - 1) && firstOfSpace0
        ? docNode(firstOfSpace0, spaceId(0), '', host)
        : undefined;
    return nodes.concat(extraNodes(space, host, now, 80_000 + kb * 10, kb === 0 ? undefined : shortcut));
  }

  function findDoc(token: string): FixtureDocument | undefined {
    const id = Number(token.replace(/^doxcnCairn/, ''));
    return token.startsWith('doxcnCairn') ? store.get(id) : undefined;
  }

  function nodesResponse(space: string, url: URL, caller: 'tenant' | 'user'): FakeResponse {
    const kb =
      space === 'my_library' ? MY_LIBRARY_KB : store.knowledgeBases.findIndex((_, i) => spaceId(i) === space);
    if (kb < 0) return fail(400, 131005, 'space not found');
    if (kb === MY_LIBRARY_KB && caller !== 'user')
      return fail(400, 131006, 'permission denied: My Library needs a user access token');
    if (hiddenSpaces.has(space) && caller !== 'user') return fail(400, 131006, 'permission denied');
    const parent = url.searchParams.get('parent_node_token') ?? '';
    const children = spaceNodes(kb).filter((n) => n.parent_node_token === parent);
    // Real lists are permission-filtered, so an empty page with has_more:true is valid (§1.5).
    if (kb === 0 && parent === '' && !url.searchParams.get('page_token'))
      return ok({ items: [], has_more: true, page_token: encodeToken(0) });
    const page = paged(children, url, 50, 20);
    return 'status' in page ? page : ok(page);
  }

  function driveResponse(url: URL): FakeResponse {
    const folder = url.searchParams.get('folder_token') ?? '';
    const docs = store.list(DRIVE_KB);
    const file = (d: FixtureDocument, parent: string) => ({
      token: docToken(d.id),
      name: d.title,
      type: 'docx',
      parent_token: parent,
      url: `${host}/docx/${docToken(d.id)}`,
      created_time: seconds(d.createdAt),
      modified_time: seconds(d.updatedAt),
      owner_id: 'ou_cairn_demo_owner',
    });
    let files: Record<string, unknown>[];
    if (folder === DRIVE_ROOT) {
      files = docs.slice(0, 2).map((d) => file(d, DRIVE_ROOT));
      files.push({
        token: DRIVE_SUB,
        name: '子文件夹 Subfolder',
        type: 'folder',
        parent_token: DRIVE_ROOT,
        url: `${host}/drive/folder/${DRIVE_SUB}`,
        created_time: seconds(now),
        modified_time: seconds(now),
        owner_id: 'ou_cairn_demo_owner',
      });
      files.push({
        token: 'shtcnCairnSheet01',
        name: 'numbers.xlsx',
        type: 'sheet',
        parent_token: DRIVE_ROOT,
        url: `${host}/sheets/shtcnCairnSheet01`,
        created_time: seconds(now),
        modified_time: seconds(now),
        owner_id: 'ou_cairn_demo_owner',
      });
    } else if (folder === DRIVE_SUB) files = docs.slice(2).map((d) => file(d, DRIVE_SUB));
    else return fail(404, 1061007, 'folder not found');
    // Serves at most 2 files per page (a server may return fewer than asked) so clients must follow next_page_token.
    const capped = new URL(url);
    capped.searchParams.set('page_size', String(Math.min(Number(url.searchParams.get('page_size') ?? 2), 2)));
    const page = paged(files, capped, 200, 2);
    if ('status' in page) return page;
    return ok(
      page.has_more
        ? { files: page.items, next_page_token: page.page_token, has_more: true }
        : { files: page.items, has_more: false },
    );
  }

  function contentResponse(url: URL): FakeResponse {
    const t = Date.now();
    // 5/s per connectors.md §1.3; a 900 ms window tolerates timer jitter in a client that paces at 5 per second.
    while (contentCalls.length && t - contentCalls[0]! > 900) contentCalls.shift();
    if (contentCalls.length >= CONTENT_RATE_PER_SECOND) return rateLimited(1);
    contentCalls.push(t);
    if (url.searchParams.get('doc_type') !== 'docx') return invalidField('doc_type must be docx');
    if (url.searchParams.get('content_type') !== 'markdown')
      return invalidField('content_type must be markdown');
    const token = url.searchParams.get('doc_token') ?? '';
    const document = findDoc(token);
    if (!document)
      return token.startsWith('doxcnCairn') && store.wasListed(Number(token.replace(/^doxcnCairn/, '')))
        ? fail(403, 2889906, 'docs deleted')
        : fail(400, 2889914, 'doc token not found');
    if (deniedDocuments.has(token)) return fail(403, 2889902, 'no permission');
    if (brokenExports.has(token)) return fail(500, 2889925, 'content size exceed limit');
    return ok({ content: blocksToMarkdown(document.blocks) });
  }

  function docxResponse(request: FakeRequest, segments: string[]): FakeResponse {
    const document = findDoc(segments[0] ?? '');
    if (!document) return fail(404, 1770002, 'not found');
    if (segments.length === 1)
      return ok({
        document: {
          document_id: docToken(document.id),
          revision_id: document.version,
          title: document.title,
        },
      });
    if (segments[1] === 'raw_content')
      return ok({ content: `${document.title}\n${blocksToPlainText(document.blocks)}` });
    if (segments[1] !== 'blocks') return fail(404, 1770002, 'not found');
    if (deniedDocuments.has(docToken(document.id))) return fail(403, 1770032, 'forbidden');
    if (brokenExports.get(docToken(document.id))?.blocks) return fail(400, 1770001, 'invalid param');
    const requested = Number(request.url.searchParams.get('page_size') ?? 500);
    const url = new URL(request.url);
    url.searchParams.set('page_size', String(Math.min(requested, options.blockPageSize ?? 500)));
    const page = paged(toDocxBlocks(document), url, 500, 500);
    return 'status' in page ? page : ok(page);
  }

  function searchResponse(request: FakeRequest): FakeResponse {
    const body = (request.body ?? {}) as { query?: string; page_size?: number; page_token?: string };
    const query = (body.query ?? '').trim();
    if (!query) return invalidField('query is required');
    if ([...query].length > 50) return invalidField('query must be at most 50 characters');
    const url = new URL('http://x/');
    // page_size defaults to 0 ("搜索文档": 0-20, default 0).
    if (!body.page_size) return ok({ total: 0, has_more: false, res_units: [] });
    url.searchParams.set('page_size', String(body.page_size));
    if (body.page_token) url.searchParams.set('page_token', body.page_token);
    // Search runs as the user, who sees My Library and every space the app may not.
    const units = store.list().flatMap((d) => {
      const summary = highlightSnippet(blocksToSearchText(d.title, d.blocks), query, '<h>', '</h>');
      if (!summary) return [];
      const wiki = d.knowledgeBase !== DRIVE_KB;
      const space = d.knowledgeBase === MY_LIBRARY_KB ? 'my_library' : spaceId(d.knowledgeBase);
      const token = wiki ? docNode(d, space, '', host).node_token : docToken(d.id);
      const title = highlightSnippet(d.title, query, '<h>', '</h>', 1000) ?? d.title;
      const url = wiki ? `${host}/wiki/${token}` : `${host}/docx/${token}`;
      return [
        {
          title_highlighted: title,
          summary_highlighted: summary,
          entity_type: wiki ? 'WIKI' : 'DOC',
          result_meta: {
            doc_types: 'DOCX',
            token,
            url,
            update_time: Number(seconds(d.updatedAt)),
            create_time: Number(seconds(d.createdAt)),
            last_open_time: Number(seconds(d.updatedAt)),
            owner_id: 'ou_cairn_demo_owner',
            owner_name: '演示用户',
            edit_user_id: 'ou_cairn_demo_owner',
            edit_user_name: '演示用户',
            file_type: 'docx',
            is_cross_tenant: false,
          },
        },
      ];
    });
    const page = paged(units, url, 20, 15);
    if ('status' in page) return page;
    return ok({
      total: units.length,
      has_more: page.has_more,
      page_token: page.page_token ?? '',
      res_units: page.items,
    });
  }

  /** Spreadsheets are the fixture's sheet nodes and the drive's sheet file; each has one visible sheet and one hidden. */
  function isSheet(token: string): boolean {
    return /^sheetCairn\d+$/.test(token) || token === 'shtcnCairnSheet01';
  }

  function sheetsQuery(token: string): FakeResponse {
    if (!isSheet(token)) return fail(400, 1310214, 'spreadsheet not found');
    return ok({
      sheets: [
        {
          sheet_id: 'a1b2c3',
          title: '预算 Budget',
          index: 0,
          hidden: false,
          grid_properties: { frozen_row_count: 1, frozen_column_count: 0, row_count: 4, column_count: 3 },
          resource_type: 'sheet',
          merges: [],
        },
        {
          sheet_id: 'hid999',
          title: 'Hidden',
          index: 1,
          hidden: true,
          grid_properties: { frozen_row_count: 0, frozen_column_count: 0, row_count: 1, column_count: 1 },
          resource_type: 'sheet',
        },
      ],
    });
  }

  function sheetValues(token: string, range: string): FakeResponse {
    if (!isSheet(token)) return fail(400, 1310214, 'spreadsheet not found');
    const sheetId = decodeURIComponent(range).split('!')[0];
    if (sheetId !== 'a1b2c3' && sheetId !== 'hid999') return invalidField('range is invalid');
    const values =
      sheetId === 'a1b2c3'
        ? [
            ['项目 Item', '金额 Amount', '负责人 Owner'],
            ['服务器 Servers', 12000, '张伟'],
            ['Licences', 3400.5, 'Alice'],
            [null, null, null],
          ]
        : [['secret']];
    return ok({
      revision: 7,
      spreadsheetToken: token,
      valueRange: { majorDimension: 'ROWS', range: `${sheetId}!A1:C4`, revision: 7, values },
    });
  }

  function isBitable(token: string): boolean {
    return /^bitableCairn\d+$/.test(token);
  }

  function bitableItems(token: string): { record_id: string; fields: Record<string, unknown> }[] {
    const count = bitableRows.get(token);
    if (count === undefined)
      return [
        {
          record_id: 'rec1',
          fields: { 任务: '上线检索', 负责人: [{ id: 'ou_1', name: '张伟' }], 进度: 0.5 },
        },
        {
          record_id: 'rec2',
          fields: {
            任务: [{ type: 'text', text: 'Write docs' }],
            负责人: [{ id: 'ou_2', name: 'Alice' }],
            进度: 1,
          },
        },
      ];
    return Array.from({ length: count }, (_, i) => ({
      record_id: `recRow${i + 1}`,
      fields: { 任务: `任务 ${i + 1}`, 序号: i + 1 },
    }));
  }

  function bitableTables(token: string): FakeResponse {
    if (!isBitable(token)) return fail(404, 1254040, 'app not found');
    return ok({
      has_more: false,
      page_token: '',
      total: 1,
      items: [{ table_id: 'tblCairn01', name: '任务 Tasks', revision: 3 }],
    });
  }

  function bitableRecords(token: string, table: string, url: URL): FakeResponse {
    if (!isBitable(token) || table !== 'tblCairn01') return fail(404, 1254040, 'table not found');
    const size = Number(url.searchParams.get('page_size') ?? 20);
    if (!Number.isInteger(size) || size < 1 || size > 500) return invalidField('page_size must be 1..500');
    // Advanced permissions the caller cannot read: the call succeeds and returns no data ("查询记录").
    if (hiddenBitableRows.has(token)) return ok({ has_more: false, total: 0, items: [] });
    const items = bitableItems(token);
    const offset = decodeToken(url.searchParams.get('page_token'));
    const slice = items.slice(offset, offset + size);
    const more = offset + size < items.length;
    return ok({
      has_more: more,
      ...(more ? { page_token: encodeToken(offset + size) } : {}),
      total: items.length,
      items: slice,
    });
  }

  /** A user token without any scope the route's page lists: 99991679 naming them, as the official CLI reads it. */
  function missingUserScope(caller: Caller, route: string, segments: string[]): FakeResponse | null {
    if (caller.kind !== 'user') return null;
    const needed =
      route === 'sheets/v3/spreadsheets' || route === 'sheets/v2/spreadsheets'
        ? SHEETS_SCOPES
        : route === 'bitable/v1/apps' && segments[6] === 'records'
          ? BITABLE_RECORDS_SCOPES
          : route === 'bitable/v1/apps'
            ? BITABLE_TABLES_SCOPES
            : route === 'docs/v1/content'
              ? DOCS_CONTENT_SCOPES
              : null;
    if (!needed || needed.some((scope) => caller.scopes.has(scope))) return null;
    return {
      status: 400,
      body: {
        code: 99991679,
        msg: `Unauthorized. You do not have permission to perform the requested operation on the resource. Please request user re-authorization and try again. required one of these privileges under the user identity: [${needed.join(', ')}]`,
        error: {
          permission_violations: needed.map((subject) => ({ type: 'action_scope_required', subject })),
        },
      },
    };
  }

  function rateLimited(resetSeconds: number): FakeResponse {
    return {
      status: legacyRateLimit ? 400 : 429,
      headers: {
        'x-ogw-ratelimit-limit': String(CONTENT_RATE_PER_SECOND),
        'x-ogw-ratelimit-reset': String(resetSeconds),
      },
      body: { code: 99991400, msg: 'request trigger frequency limit' },
    };
  }

  function handle(request: FakeRequest): FakeResponse {
    const { path, url } = request;
    if (request.method === 'POST' && path === '/open-apis/auth/v3/tenant_access_token/internal')
      return auth.tenantToken(request);
    if (request.method === 'POST' && path === '/oauth/v3/token') return auth.userToken(request, 'v3');
    if (request.method === 'POST' && path === '/open-apis/authen/v2/oauth/token')
      return auth.userToken(request, 'v2');
    if (request.method === 'GET' && path === '/open-apis/authen/v1/authorize')
      return auth.codeGrant.authorizePage(request);
    const caller = auth.authenticate(request);
    const searching = request.method === 'POST' && path === '/open-apis/search/v2/doc_wiki/search';
    if ('status' in caller) {
      // Search documents its own answer for a bad user token: HTTP 401, 1274011.
      const code = (caller.body as { code?: number } | undefined)?.code;
      if (searching && (code === 99991677 || code === 99991668))
        return fail(401, 1274011, 'user_access_token is invalid or expired');
      return caller;
    }
    if (monthlyQuotaExhausted) return fail(400, 99991403, "This month's API call quota has been exceeded");
    if (searching) {
      return caller.kind === 'user'
        ? searchResponse(request)
        : fail(
            400,
            99991663,
            'Invalid access token for authorization: this API does not support tenant_access_token',
          );
    }
    if (scopeRevoked)
      return {
        status: 400,
        body: {
          code: 99991672,
          msg: 'Access denied. One of the following scopes is required: [wiki:wiki:readonly, wiki:wiki]',
          error: {
            permission_violations: ['wiki:wiki:readonly', 'wiki:wiki'].map((subject) => ({
              type: 'action_scope_required',
              subject,
            })),
          },
        },
      };
    const segments = path.split('/').filter(Boolean).slice(1); // drop "open-apis"
    const route = segments.slice(0, 3).join('/');
    const scopeRefusal = missingUserScope(caller, route, segments);
    if (scopeRefusal) return scopeRefusal;
    if (route === 'wiki/v2/spaces' && segments.length === 3) {
      const visible = store.knowledgeBases.filter(
        (kb) => caller.kind === 'user' || !hiddenSpaces.has(spaceId(kb.index)),
      );
      const spaces = visible.map((kb) => ({
        space_id: spaceId(kb.index),
        name: kb.name,
        description: kb.description,
        space_type: 'team',
        visibility: 'private',
        open_sharing: 'closed',
      }));
      const page = paged(spaces, url, 50, 20);
      return 'status' in page ? page : ok(page);
    }
    if (route === 'wiki/v2/spaces' && segments[3] === 'get_node') {
      const token = url.searchParams.get('token') ?? '';
      const node = [...store.knowledgeBases.map((kb) => kb.index), MY_LIBRARY_KB]
        .flatMap(spaceNodes)
        .find((n) => n.node_token === token || (n.obj_token === token && n.node_type === 'origin'));
      if (!node) return fail(400, 131005, 'node not found');
      // "获取知识空间节点信息": the caller needs read permission on the node.
      const readable =
        caller.kind === 'user' || (node.space_id !== 'my_library' && !hiddenSpaces.has(node.space_id));
      return readable ? ok({ node }) : fail(400, 131006, 'permission denied');
    }
    if (route === 'wiki/v2/spaces' && segments[4] === 'nodes')
      return nodesResponse(segments[3]!, url, caller.kind);
    if (route === 'drive/v1/files' && segments.length === 3) return driveResponse(url);
    if (route === 'docs/v1/content') return contentResponse(url);
    if (route === 'docx/v1/documents') return docxResponse(request, segments.slice(3));
    if (route === 'sheets/v3/spreadsheets' && segments[4] === 'sheets' && segments[5] === 'query')
      return sheetsQuery(segments[3]!);
    if (route === 'sheets/v2/spreadsheets' && segments[4] === 'values')
      return sheetValues(segments[3]!, segments[5]!);
    if (route === 'bitable/v1/apps' && segments.length === 5 && segments[4] === 'tables')
      return bitableTables(segments[3]!);
    if (route === 'bitable/v1/apps' && segments[6] === 'records' && segments[7] === 'search')
      return bitableRecords(segments[3]!, segments[5]!, url);
    return fail(404, 404, 'not found');
  }

  const server = await startFakeServer({
    faults,
    handle,
    renderFault: (fault, request) => {
      if (fault.kind !== 'rate-limit') return fail(500, 1, 'internal error');
      const limited = rateLimited(fault.resetSeconds ?? 1);
      // Search documents its own rate-limit answer: HTTP 429, 1277001.
      return request.path === '/open-apis/search/v2/doc_wiki/search'
        ? { ...limited, status: 429, body: { code: 1277001, msg: 'rate limit exceeded' } }
        : limited;
    },
  });

  const control: FeishuFakeControl = {
    store,
    requests: server.requests,
    inject: (fault, faultOptions) => faults.inject(fault, faultOptions),
    useLegacyRateLimitStatus: (legacy) => void (legacyRateLimit = legacy),
    expireTokens: () => auth.expireAccessTokens(),
    expireRefreshTokens: () => auth.expireRefreshTokens(),
    revokeScope: (revoked) => void (scopeRevoked = revoked),
    hideSpaceFromApp: (kb) => void hiddenSpaces.add(spaceId(kb)),
    setBitableRows: (token, count) => void bitableRows.set(token, count),
    hideBitableRows: (token) => void hiddenBitableRows.add(token),
    myLibraryTables,
    breakExport: (id, breakOptions) =>
      void brokenExports.set(docToken(id), { blocks: breakOptions?.blocks ?? false }),
    denyDocument: (id) => void deniedDocuments.add(docToken(id)),
    exhaustMonthlyQuota: (exhausted) => void (monthlyQuotaExhausted = exhausted),
    revokeRefreshToken: () => auth.revokeRefreshToken(),
    allowRefresh: (allowed) => void (auth.switches.refreshAllowed = allowed),
    serveV3: (served) => void (auth.switches.v3 = served),
    endGracePeriods: () => auth.endGracePeriods(),
    get latestRefreshToken() {
      return auth.latestRefreshToken;
    },
    setConsent: (mode) => void (auth.codeGrant.consent = mode),
    registerRedirectUris: (uris) => void (auth.codeGrant.registeredRedirectUris = uris),
    expireAuthorizationCodes: () => auth.codeGrant.expireCodes(),
    changeDocument: (id, change) => void store.change(id, change),
    deleteDocument: (id) => store.delete(id),
    addDocument: (input) => store.add(input).id,
    vanishAfterListing: (id) => store.vanishAfterListing(id),
    externalIdOf: (id) => docToken(id),
  };
  return { baseUrl: server.origin, credentials, control, close: server.close };
}
