/**
 * A fake DingTalk open platform on 127.0.0.1 as two origins, as DingTalk serves two hosts
 * (docs/connectors.md "DingTalk: hosts"): the new API (api.dingtalk.com: `baseUrl`) and the legacy
 * user API (oapi.dingtalk.com: `oapiBaseUrl`, only POST /topapi/v2/user/get?access_token= ({userid} →
 * {errcode, result: {unionid}})). The new API serves what docs/connectors.md "DingTalk" lists: the
 * app access token, wiki workspaces (TEAM) and the user's "My Docs" (GET /v2.0/wiki/mineWorkspaces: one
 * PERSONAL workspace, not in /workspaces), nodes (maxResults/nextToken, token omitted on the last
 * page), the first-level blocks of an online document (GET /v1.0/doc/suites/documents/{dentryUuid}/blocks
 * → {result: {data: [...]}, success}, a range by startIndex…endIndex, both 0-based and inclusive as
 * the page words it), the async Markdown export (GET /v2.0/doc/query/{uuid}/contents → {taskId}) whose
 * export-finished event is pushed over a real Stream-mode WebSocket (dingtalk-stream-fake.ts: gateway,
 * tickets, EVENT/ping/disconnect frames, redelivery), and POST /v2.0/doc/search.
 * Permissions: each route checks the permission its official page names (Wiki.Workspace.Read,
 * Wiki.Node.Read, Storage.File.Read); a revoked one answers 403
 * Forbidden.AccessDenied.AccessTokenPermissionDenied with `accessdenieddetail.requiredScopes` as
 * open-dingtalk/developerpedia "permission-deny" shows it.
 * Faults: the per-app QPS limit (403 Forbidden.AccessDenied.QpsLimitForAppkeyAndApi) and the
 * organisation's monthly allowance (403 Forbidden.AccessDenied.ApiCountLimitForOrg).
 *
 * Not imitated (on purpose, or because the facts are unverified):
 * - What dingtalk-stream-fake.ts lists for Stream mode (exact gateway error codes, the real redelivery schedule).
 * - No polling route for export tasks (the official SDK has none).
 * - Exact codes for a bad app secret, an unknown operatorId, a missing document and a refused blocks
 *   query are [U]; the fake uses `invalidClientSecret` (400), `Forbidden.AccessDenied` (403),
 *   `notFound` (404) and `Forbidden.AccessDenied.AccessTokenPermissionDenied` (403). The user API's
 *   errcodes other than 0 (60121 unknown user, 40014 bad token) are from third-party code; how it
 *   refuses an app without qyapi_get_member is not imitated [U].
 * - The permissions of the Markdown export and of search (no official page found) are not checked.
 * - Whether the real blocks query caps a range, or treats endIndex as exclusive, is [U].
 * - Block shapes: the documented envelope {blockType, [blockType]: {...}} with the properties third
 *   parties observed live (heading `{level: "heading-N", text}`, paragraph `{text}` or
 *   `{elements: [{text: {content}}]}`, table `{cells}`); each corpus line is one first-level block.
 * - The download link imitates a signed OSS URL only loosely (Expires + Signature query, no real signing).
 * - No user OAuth, drive search, per-IP punishment page, permission roles, teams, or ordering; search
 *   matches substrings of title and text, nothing smarter.
 * - Workspace ids double as search `spaceId`s, and node ids as `dentryUuid`s (both [U] on the real API).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { GATEWAY_PATH } from '../../core/connectors/dingtalk/stream-protocol';
import { createStreamFake, type DingTalkStreamFakeControl } from './dingtalk-stream-fake';
import {
  generateCorpus,
  reviseDocument,
  snippetAround,
  type CorpusDocument,
  type CorpusOptions,
} from './dingtalk-ima-corpus';
import { delay, FaultPlan, listenLocal, page, readJson, sendJson, type Fault } from './dingtalk-ima-faults';

export interface DingTalkFakeOptions extends CorpusOptions {
  /** Largest page the fake hands out, whatever maxResults asks. @default 5 */
  maxPageSize?: number;
  /** @default 7200 */
  tokenLifetimeSeconds?: number;
  /** The last space is the user's "My Docs" (PERSONAL, only in mineWorkspaces). @default true */
  personalSpace?: boolean;
}

/** The payload shapes public code shows for the export event (docs/connectors.md "The export event"). */
export type ExportEventShape = 'bizData-string' | 'bizData' | 'flat';

export interface ExpectedDocument {
  /** The corpus key the control methods take. */
  key: string;
  externalId: string;
  title: string;
  knowledgeBase: string;
  url: string;
  markdown: string;
  /** The Markdown the document's first-level blocks render to. */
  blocksMarkdown: string;
  modifiedTime: string;
}

export interface DingTalkFakeControl {
  inject(fault: Fault): void;
  clearFaults(): void;
  /** Invalidates every issued token (a token expiring mid-sync). */
  expireTokens(): void;
  tokenLifetimeSeconds: number;
  maxPageSize: number;
  /** Every request as "METHOD /path" (no query), oldest first. */
  readonly requests: string[];
  /** Every access token handed out, oldest first (tests grep logs for them). */
  issuedTokens(): string[];
  /** The Stream-mode side: gateway and socket faults, acks, tickets. */
  readonly stream: DingTalkStreamFakeControl;
  /** Emit the export event by itself after `exportDelayMs`. @default true */
  autoExport: boolean;
  /** @default 5 */
  exportDelayMs: number;
  /** Task ids requested but not yet emitted. */
  pendingExports(): string[];
  /** Test hook: emits the export-finished event of a task (with `success: false` to imitate a failed export). */
  emitExport(taskId: string, options?: { success?: boolean }): void;
  /** This document's exports finish with `success: false`. */
  failExport(key: string): void;
  /** The document stays listed, but its content request answers 404 (deleted after listing). */
  vanish(key: string): void;
  addDocument(partial?: Partial<CorpusDocument>): CorpusDocument;
  changeDocument(key: string, markdown?: string): CorpusDocument;
  deleteDocument(key: string): void;
  nodeIdOf(key: string): string;
  /** The blocks query of this document answers 403 (the export is the only way in). */
  refuseBlocks(key: string): void;
  /** The app lacks this permission (e.g. Wiki.Node.Read): the routes needing it answer 403 naming it. */
  revokePermission(permission: string): void;
  grantAllPermissions(): void;
  /** Each blocks query as `startIndex…endIndex` ('' when absent), oldest first. */
  readonly blockRanges: string[];
  /** How export events carry their fields. @default 'bizData-string' */
  eventShape: ExportEventShape;
  /** The userId the user API knows (its unionId is `credentials.operatorId`). */
  readonly userId: string;
  /** The documents a complete listing must return (ALIDOC docs only), with their text. */
  documents(): ExpectedDocument[];
}

export interface DingTalkFake {
  /** The new API's origin (api.dingtalk.com). */
  baseUrl: string;
  /** The legacy user API's origin (oapi.dingtalk.com); also in `credentials` as a connection setting. */
  oapiBaseUrl: string;
  credentials: Record<string, string>;
  control: DingTalkFakeControl;
  close(): Promise<void>;
}

interface FakeNode {
  nodeId: string;
  name: string;
  type: 'FILE' | 'FOLDER';
  category?: string;
  extension?: string;
  parentNodeId: string;
  space: number;
  modifiedTime: string;
  docKey?: string;
}

const WIKI_OR_DOC = /^\/v2\.0\/(wiki|doc)\//;

/** The permission each route's official page names (docs/connectors.md "DingTalk: permissions"). */
function permissionFor(path: string): string | null {
  if (path === '/v2.0/wiki/workspaces' || path === '/v2.0/wiki/mineWorkspaces') return 'Wiki.Workspace.Read';
  if (path === '/v2.0/wiki/nodes') return 'Wiki.Node.Read';
  if (/^\/v1\.0\/doc\/suites\/documents\/[^/]+\/blocks$/.test(path)) return 'Storage.File.Read';
  return null;
}

function shortId(prefix: string, seed: string): string {
  return prefix + createHash('sha1').update(seed).digest('hex').slice(0, 22);
}

/** Each line a first-level block; consecutive table rows one table block. */
function lineGroups(markdown: string): { kind: 'heading' | 'table' | 'text'; lines: string[] }[] {
  const groups: { kind: 'heading' | 'table' | 'text'; lines: string[] }[] = [];
  for (const line of markdown.split('\n').filter((l) => l.trim())) {
    const kind = /^#{1,6} /.test(line) ? 'heading' : line.startsWith('|') ? 'table' : 'text';
    const last = groups.at(-1);
    if (kind === 'table' && last?.kind === 'table') last.lines.push(line);
    else groups.push({ kind, lines: [line] });
  }
  return groups;
}

const tableCells = (line: string) => line.replace(/^\|\s*|\s*\|$/g, '').split(/\s*\|\s*/);

/** A corpus document's blocks in the shapes third parties observed (see the file comment). */
function documentBlocks(markdown: string): Record<string, unknown>[] {
  return lineGroups(markdown).map((group, i) => {
    const id = `blk${i}`;
    if (group.kind === 'heading') {
      const level = /^#+/.exec(group.lines[0]!)![0].length;
      return {
        id,
        blockType: 'heading',
        heading: { level: `heading-${level}`, text: group.lines[0]!.replace(/^#+ /, '') },
      };
    }
    if (group.kind === 'table')
      return { id, blockType: 'table', table: { cells: group.lines.map(tableCells) } };
    // Both paragraph shapes seen in public code: plain text, and inline elements.
    const text = group.lines[0]!;
    return i % 2 === 0
      ? { id, blockType: 'paragraph', paragraph: { text } }
      : { id, blockType: 'paragraph', paragraph: { elements: [{ text: { content: text } }] } };
  });
}

/** What those blocks mean as Markdown: headings, paragraphs and pipe tables, blank lines between. */
function blocksMarkdownOf(markdown: string): string {
  return (
    lineGroups(markdown)
      .map((group) => {
        if (group.kind !== 'table') return group.lines[0]!.trim();
        const rows = group.lines.map(tableCells);
        const width = Math.max(...rows.map((r) => r.length));
        const line = (r: string[]) =>
          `| ${Array.from({ length: width }, (_, i) => r[i] ?? '').join(' | ')} |`;
        return [
          line(rows[0]!),
          line(Array.from({ length: width }, () => '---')),
          ...rows.slice(1).map(line),
        ].join('\n');
      })
      .join('\n\n') + '\n'
  );
}

export async function startDingTalkFake(options: DingTalkFakeOptions = {}): Promise<DingTalkFake> {
  const corpus = generateCorpus(options);
  const docs = new Map(corpus.documents.map((doc) => [doc.key, doc]));
  const vanished = new Set<string>();
  const faults = new FaultPlan();
  const timers = new Set<NodeJS.Timeout>();
  const tokens = new Map<string, number>();
  const failingExports = new Set<string>();
  const refusedBlocks = new Set<string>();
  const exports = new Map<string, { dentryUuid: string; name: string; markdown: string }>();
  const downloads = new Map<string, { markdown: string; signature: string; expires: number }>();
  const requests: string[] = [];
  const issued: string[] = [];
  const revoked = new Set<string>();
  const blockRanges: string[] = [];
  let nextKey = corpus.documents.length + 1;
  const credentials = {
    appKey: 'dingfakeappkey0001',
    appSecret: `dt-secret-${randomBytes(12).toString('hex')}`,
    operatorId: 'fakeUnionIdiEiE0001',
  };
  const stream = createStreamFake(credentials);
  const personal =
    options.personalSpace !== false && corpus.spaces.length > 1 ? corpus.spaces.length - 1 : -1;
  const workspaces = corpus.spaces.map((name, space) => ({
    workspaceId: shortId('ws', `ws${space}`),
    rootNodeId: shortId('rt', `root${space}`),
    name,
    space,
  }));
  const workspaceView = ({ space, ...ws }: (typeof workspaces)[number]) => ({
    ...ws,
    type: space === personal ? 'PERSONAL' : 'TEAM',
    url: `https://alidocs.dingtalk.com/i/spaces/${ws.workspaceId}/overview`,
    createTime: '2024-01-01T00:00Z',
    modifiedTime: '2024-06-01T00:00Z',
    corpId: 'dingfakecorp',
  });
  const nodeUrl = (nodeId: string) => `https://alidocs.dingtalk.com/i/nodes/${nodeId}`;

  function buildTree(): Map<string, FakeNode[]> {
    const children = new Map<string, FakeNode[]>();
    const add = (node: FakeNode) =>
      children.set(node.parentNodeId, [...(children.get(node.parentNodeId) ?? []), node]);
    const folders = new Set<string>();
    const folderId = (space: number, path: string[]) =>
      path.length === 0 ? workspaces[space]!.rootNodeId : shortId('fd', `${space}/${path.join('/')}`);
    for (const doc of docs.values()) {
      for (let depth = 1; depth <= doc.folder.length; depth++) {
        const path = doc.folder.slice(0, depth);
        const id = folderId(doc.space, path);
        if (folders.has(id)) continue;
        folders.add(id);
        add({
          nodeId: id,
          name: path[depth - 1]!,
          type: 'FOLDER',
          parentNodeId: folderId(doc.space, path.slice(0, -1)),
          space: doc.space,
          modifiedTime: '2024-05-01T00:00Z',
        });
      }
      add({
        nodeId: shortId('nd', doc.key),
        name: doc.title,
        type: 'FILE',
        category: 'ALIDOC',
        extension: 'adoc',
        parentNodeId: folderId(doc.space, doc.folder),
        space: doc.space,
        modifiedTime: doc.updatedAt,
        docKey: doc.key,
      });
    }
    for (const ws of workspaces) {
      // Non-Markdown nodes the connector must skip: an uploaded PDF and an online sheet.
      add({
        nodeId: shortId('pf', ws.workspaceId),
        name: '季度报告.pdf',
        type: 'FILE',
        category: 'OTHER',
        extension: 'pdf',
        parentNodeId: ws.rootNodeId,
        space: ws.space,
        modifiedTime: '2024-05-02T00:00Z',
      });
      add({
        nodeId: shortId('sh', ws.workspaceId),
        name: 'Budget 2024',
        type: 'FILE',
        category: 'ALIDOC',
        extension: 'axls',
        parentNodeId: ws.rootNodeId,
        space: ws.space,
        modifiedTime: '2024-05-03T00:00Z',
      });
    }
    return children;
  }

  function nodeView(node: FakeNode, children: Map<string, FakeNode[]>) {
    const { docKey: _docKey, parentNodeId: _parent, space, ...rest } = node;
    return {
      ...rest,
      hasChildren: (children.get(node.nodeId)?.length ?? 0) > 0,
      url: nodeUrl(node.nodeId),
      workspaceId: workspaces[space]!.workspaceId,
      createTime: '2024-01-01T00:00Z',
      creatorId: credentials.operatorId,
      modifierId: credentials.operatorId,
    };
  }

  function docByNodeId(nodeId: string): CorpusDocument | undefined {
    for (const doc of docs.values()) if (shortId('nd', doc.key) === nodeId) return doc;
    return undefined;
  }

  function emit(taskId: string, success: boolean): void {
    const task = exports.get(taskId);
    if (!task) throw new Error(`No export task ${taskId}`);
    exports.delete(taskId);
    const token = randomBytes(8).toString('hex');
    const signature = randomBytes(8).toString('hex');
    downloads.set(token, { markdown: task.markdown, signature, expires: Date.now() + 900_000 });
    const bizData = {
      taskId,
      dentryUuid: task.dentryUuid,
      format: 'markdown',
      success,
      name: task.name,
      extension: 'adoc',
      url: success ? `${baseUrl}/oss/export/${token}.md?Expires=900&Signature=${signature}` : '',
    };
    const data =
      control.eventShape === 'flat'
        ? bizData
        : { bizData: control.eventShape === 'bizData' ? bizData : JSON.stringify(bizData) };
    stream.publish('doc_content_export_result', JSON.stringify(data));
  }

  function error(res: ServerResponse, status: number, code: string, message: string): void {
    sendJson(res, status, { code, message, requestid: randomUUID() });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname;
    requests.push(`${req.method} ${path}`);
    const fault = faults.take(path);
    if (path.startsWith('/oss/export/')) {
      if (fault?.kind === 'server-error')
        return void res
          .writeHead(500, { 'content-type': 'application/xml' })
          .end('<Error><Code>InternalError</Code></Error>');
      if (fault?.kind === 'slow') await delay(fault.delayMs ?? 2000, timers);
      return download(res, path, url);
    }
    if (fault?.kind === 'rate-limit')
      return error(
        res,
        403,
        String(fault.code ?? 'Forbidden.AccessDenied.QpsLimitForAppkeyAndApi'),
        'App key QPS limit exceeded for this API.',
      );
    if (fault?.kind === 'quota')
      return error(
        res,
        403,
        String(fault.code ?? 'Forbidden.AccessDenied.ApiCountLimitForOrg'),
        '本月api调用量已超过限制',
      );
    if (fault?.kind === 'server-error')
      return error(res, 500, 'InternalError', 'The request processing has failed due to some unknown error.');
    if (fault?.kind === 'malformed-json')
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"workspaces":[{"name":"半');
    if (fault?.kind === 'slow') await delay(fault.delayMs ?? 2000, timers);

    if (req.method === 'POST' && path === GATEWAY_PATH) return stream.openConnection(req, res, baseUrl);
    if (req.method === 'POST' && path === '/v1.0/oauth2/accessToken') {
      const body = (await readJson(req)) as { appKey?: string; appSecret?: string } | undefined;
      if (body?.appKey !== credentials.appKey || body.appSecret !== credentials.appSecret)
        return error(res, 400, 'invalidClientSecret', 'The app key or app secret is invalid.');
      const token = `dtat${randomBytes(16).toString('hex')}`;
      tokens.set(token, Date.now() + control.tokenLifetimeSeconds * 1000);
      issued.push(token);
      return sendJson(res, 200, { accessToken: token, expireIn: control.tokenLifetimeSeconds });
    }
    const token = req.headers['x-acs-dingtalk-access-token'];
    const expiresAt = typeof token === 'string' ? tokens.get(token) : undefined;
    if (expiresAt === undefined || expiresAt < Date.now())
      return error(res, 401, 'InvalidAuthentication', 'The access token is invalid or has expired.');

    const needed = permissionFor(path);
    if (needed && revoked.has(needed))
      return sendJson(res, 403, {
        code: 'Forbidden.AccessDenied.AccessTokenPermissionDenied',
        requestid: randomUUID(),
        message:
          '没有调用该接口的权限，接口权限申请参考：https://open.dingtalk.com/document/orgapp-server/add-api-permission',
        accessdenieddetail: { requiredScopes: [needed] },
      });
    const body =
      req.method === 'POST' ? ((await readJson(req)) as Record<string, unknown> | undefined) : undefined;
    if (WIKI_OR_DOC.test(path)) {
      const operatorId = url.searchParams.get('operatorId') ?? body?.operatorId;
      if (!operatorId)
        return error(res, 400, 'MissingoperatorId', 'operatorId is mandatory for this action.');
      if (operatorId !== credentials.operatorId)
        return error(res, 403, 'Forbidden.AccessDenied', 'The operator has no permission for this resource.');
    }
    const size = Math.min(
      control.maxPageSize,
      Number(url.searchParams.get('maxResults') ?? body?.maxResults ?? 30) || 30,
    );

    if (req.method === 'GET' && path === '/v2.0/wiki/workspaces') {
      const teams = workspaces.filter((ws) => ws.space !== personal);
      const slice = page(teams, url.searchParams.get('nextToken') ?? undefined, size);
      const items = slice.items.map(workspaceView);
      return sendJson(
        res,
        200,
        slice.next ? { workspaces: items, nextToken: slice.next } : { workspaces: items },
      );
    }
    if (req.method === 'GET' && path === '/v2.0/wiki/mineWorkspaces') {
      // Every user has My Docs; without a personal corpus space it is empty.
      const mine = workspaces[personal] ?? {
        workspaceId: shortId('ws', 'mine'),
        rootNodeId: shortId('rt', 'mine'),
        name: '我的文档',
        space: personal,
      };
      return sendJson(res, 200, { workspace: workspaceView(mine) });
    }
    const blocks = /^\/v1\.0\/doc\/suites\/documents\/([^/]+)\/blocks$/.exec(path);
    if (req.method === 'GET' && blocks) {
      const operatorId = url.searchParams.get('operatorId');
      if (!operatorId)
        return error(res, 400, 'MissingoperatorId', 'operatorId is mandatory for this action.');
      if (operatorId !== credentials.operatorId)
        return error(res, 403, 'Forbidden.AccessDenied', 'The operator has no permission for this resource.');
      const doc = docByNodeId(decodeURIComponent(blocks[1]!));
      if (!doc || vanished.has(doc.key))
        return error(res, 404, 'notFound', 'The document does not exist or has been deleted.');
      if (refusedBlocks.has(doc.key))
        return error(
          res,
          403,
          'Forbidden.AccessDenied.AccessTokenPermissionDenied',
          'No permission: Storage.File.Read is required.',
        );
      const startIndex = url.searchParams.get('startIndex');
      const endIndex = url.searchParams.get('endIndex');
      blockRanges.push(
        startIndex === null && endIndex === null ? '' : `${startIndex ?? ''}…${endIndex ?? ''}`,
      );
      const all = documentBlocks(doc.markdown);
      const from = startIndex === null ? 0 : Number(startIndex);
      const to = endIndex === null ? all.length - 1 : Number(endIndex);
      if (![from, to].every((n) => Number.isInteger(n) && n >= 0))
        return error(res, 400, 'invalidParameter', 'startIndex and endIndex are integers ≥ 0.');
      return sendJson(res, 200, { result: { data: all.slice(from, to + 1) }, success: true });
    }
    if (req.method === 'GET' && path === '/v2.0/wiki/nodes') {
      const parent = url.searchParams.get('parentNodeId');
      if (!parent)
        return error(res, 400, 'MissingparentNodeId', 'parentNodeId is mandatory for this action.');
      const tree = buildTree();
      const slice = page(tree.get(parent) ?? [], url.searchParams.get('nextToken') ?? undefined, size);
      const nodes = slice.items.map((node) => nodeView(node, tree));
      return sendJson(res, 200, slice.next ? { nodes, nextToken: slice.next } : { nodes });
    }
    const contents = /^\/v2\.0\/doc\/query\/([^/]+)\/contents$/.exec(path);
    if (req.method === 'GET' && contents) {
      const doc = docByNodeId(decodeURIComponent(contents[1]!));
      if (!doc || vanished.has(doc.key))
        return error(res, 404, 'notFound', 'The document does not exist or has been deleted.');
      if (url.searchParams.get('targetFormat') !== 'markdown')
        return error(res, 400, 'invalidParameter.targetFormat', 'Only targetFormat=markdown is imitated.');
      const taskId = String(Date.now()) + randomBytes(3).toString('hex');
      exports.set(taskId, { dentryUuid: shortId('nd', doc.key), name: doc.title, markdown: doc.markdown });
      const success = !failingExports.has(doc.key);
      if (control.autoExport)
        void delay(control.exportDelayMs, timers).then(() => exports.has(taskId) && emit(taskId, success));
      return sendJson(res, 200, { taskId });
    }
    if (req.method === 'POST' && path === '/v2.0/doc/search') return search(res, body ?? {});
    return error(
      res,
      404,
      'InvalidAction.NotFound',
      'Specified api is not found, please check your url and method.',
    );
  }

  /** "Query user details" on the legacy host: the app token as ?access_token=, errcode 0 on success. */
  function userGet(res: ServerResponse, url: URL, body: unknown): void {
    const expiresAt = tokens.get(url.searchParams.get('access_token') ?? '');
    if (expiresAt === undefined || expiresAt < Date.now())
      return sendJson(res, 200, { errcode: 40014, errmsg: '不合法的access_token', request_id: randomUUID() });
    const userid = (body as { userid?: unknown } | undefined)?.userid;
    if (userid !== control.userId)
      return sendJson(res, 200, { errcode: 60121, errmsg: '找不到该用户', request_id: randomUUID() });
    sendJson(res, 200, {
      errcode: 0,
      errmsg: 'ok',
      result: { userid, unionid: credentials.operatorId, name: '测试用户', active: true },
      request_id: randomUUID(),
    });
  }

  function search(res: ServerResponse, body: Record<string, unknown>): void {
    const keyword = typeof body.keyword === 'string' ? body.keyword.trim() : '';
    const request = (body.dentryRequest ?? {}) as { maxResults?: number; nextToken?: string };
    if (!keyword || !request.maxResults)
      return error(res, 400, 'invalidParameter', 'keyword and dentryRequest.maxResults are required.');
    const hits = [...docs.values()].flatMap((doc) => {
      const snippet = snippetAround(doc.title, keyword) ?? snippetAround(doc.markdown, keyword);
      if (snippet === null) return [];
      const ws = workspaces[doc.space]!;
      const nodeId = shortId('nd', doc.key);
      return [
        {
          dentryUuid: nodeId,
          dentryId: nodeId.slice(2, 12),
          name: doc.title,
          originName: `${doc.title}.adoc`,
          content: snippet,
          url: nodeUrl(nodeId),
          path: [ws.name, ...doc.folder].join('/'),
          spaceId: ws.workspaceId,
          extension: 'adoc',
          lastEdition: { name: 'Fake Editor', timestamp: Date.parse(doc.updatedAt) },
        },
      ];
    });
    const slice = page(hits, request.nextToken, Math.min(control.maxPageSize, request.maxResults));
    sendJson(res, 200, {
      dentryResult: {
        items: slice.items,
        hasMore: slice.next !== undefined,
        ...(slice.next ? { nextToken: slice.next } : {}),
      },
    });
  }

  function download(res: ServerResponse, path: string, url: URL): void {
    const token = /^\/oss\/export\/([0-9a-f]+)\.md$/.exec(path)?.[1];
    const entry = token ? downloads.get(token) : undefined;
    if (!entry || url.searchParams.get('Signature') !== entry.signature || entry.expires < Date.now()) {
      res
        .writeHead(403, { 'content-type': 'application/xml' })
        .end('<Error><Code>AccessDenied</Code></Error>');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' }).end(entry.markdown);
  }

  const control: DingTalkFakeControl = {
    inject: (fault) => faults.inject(fault),
    clearFaults: () => faults.clear(),
    expireTokens: () => tokens.clear(),
    tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? 7200,
    maxPageSize: options.maxPageSize ?? 5,
    requests,
    issuedTokens: () => [...issued],
    stream: stream.control,
    autoExport: true,
    exportDelayMs: 5,
    pendingExports: () => [...exports.keys()],
    emitExport: (taskId, opts) => emit(taskId, opts?.success ?? true),
    failExport: (key) => void failingExports.add(key),
    vanish: (key) => void vanished.add(key),
    addDocument(partial = {}) {
      const key = `doc-${String(nextKey++).padStart(4, '0')}`;
      const doc: CorpusDocument = {
        key,
        title: `新增文档 ${key}`,
        markdown: `# 新增文档 ${key}\n\nAdded while syncing.\n`,
        language: 'zh',
        space: 0,
        folder: [],
        updatedAt: new Date().toISOString(),
        ...partial,
      };
      docs.set(key, doc);
      return doc;
    },
    changeDocument(key, markdown) {
      const doc = reviseDocument(docs.get(key)!, markdown);
      docs.set(key, doc);
      return doc;
    },
    deleteDocument: (key) => void docs.delete(key),
    nodeIdOf: (key) => shortId('nd', key),
    refuseBlocks: (key) => void refusedBlocks.add(key),
    revokePermission: (permission) => void revoked.add(permission),
    grantAllPermissions: () => revoked.clear(),
    blockRanges,
    eventShape: 'bizData-string',
    userId: 'fakeuser0001',
    documents: () =>
      [...docs.values()].map((doc) => ({
        key: doc.key,
        externalId: shortId('nd', doc.key),
        title: doc.title,
        knowledgeBase: workspaces[doc.space]!.name,
        url: nodeUrl(shortId('nd', doc.key)),
        markdown: doc.markdown,
        blocksMarkdown: blocksMarkdownOf(doc.markdown),
        modifiedTime: doc.updatedAt,
      })),
  };

  /** The legacy host: only the user API; anything else is not there. */
  async function handleOapi(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.push(`${req.method} ${url.pathname}`);
    if (req.method === 'POST' && url.pathname === '/topapi/v2/user/get')
      return userGet(res, url, await readJson(req));
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => error(res, 500, 'InternalError', String(err)));
  });
  const oapiServer = createServer((req, res) => {
    handleOapi(req, res).catch((err: unknown) => error(res, 500, 'InternalError', String(err)));
  });
  stream.attach(server);
  const { baseUrl, close } = await listenLocal(server, timers);
  const oapi = await listenLocal(oapiServer, timers);
  return {
    baseUrl,
    oapiBaseUrl: oapi.baseUrl,
    credentials: { ...credentials, oapiBaseUrl: oapi.baseUrl },
    control,
    close: () => {
      stream.close();
      return Promise.all([close(), oapi.close()]).then(() => undefined);
    },
  };
}
