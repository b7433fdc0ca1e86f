/**
 * A fake DingTalk open platform (api.dingtalk.com) on 127.0.0.1, serving what connectors.md §3.5
 * lists: the app access token, wiki workspaces and nodes (maxResults/nextToken, token omitted on the
 * last page), the async Markdown export (GET /v2.0/doc/query/{uuid}/contents → {taskId}) whose
 * export-finished event is pushed over a real Stream-mode WebSocket (dingtalk-stream-fake.ts: gateway,
 * tickets, EVENT/ping/disconnect frames, redelivery), and POST /v2.0/doc/search.
 *
 * Not imitated (on purpose, or because the facts are unverified):
 * - What dingtalk-stream-fake.ts lists for Stream mode (exact gateway error codes, the real redelivery schedule).
 * - No polling route for export tasks (the official SDK has none; connectors.md §3.3).
 * - Exact codes for a bad app secret, an unknown operatorId and a missing document are [U]; the fake uses
 *   `invalidClientSecret` (400), `Forbidden.AccessDenied` (403) and `notFound` (404).
 * - The download link imitates a signed OSS URL only loosely (Expires + Signature query, no real signing).
 * - No legacy oapi.dingtalk.com routes, user OAuth, block query, drive search, per-IP punishment page,
 *   permission roles, teams, or ordering; search matches substrings of title and text, nothing smarter.
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
}

export interface ExpectedDocument {
  /** The corpus key the control methods take. */
  key: string;
  externalId: string;
  title: string;
  knowledgeBase: string;
  url: string;
  markdown: string;
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
  /** The documents a complete listing must return (ALIDOC docs only), with their text. */
  documents(): ExpectedDocument[];
}

export interface DingTalkFake {
  baseUrl: string;
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

function shortId(prefix: string, seed: string): string {
  return prefix + createHash('sha1').update(seed).digest('hex').slice(0, 22);
}

export async function startDingTalkFake(options: DingTalkFakeOptions = {}): Promise<DingTalkFake> {
  const corpus = generateCorpus(options);
  const docs = new Map(corpus.documents.map((doc) => [doc.key, doc]));
  const vanished = new Set<string>();
  const faults = new FaultPlan();
  const timers = new Set<NodeJS.Timeout>();
  const tokens = new Map<string, number>();
  const failingExports = new Set<string>();
  const exports = new Map<string, { dentryUuid: string; name: string; markdown: string }>();
  const downloads = new Map<string, { markdown: string; signature: string; expires: number }>();
  const requests: string[] = [];
  const issued: string[] = [];
  let nextKey = corpus.documents.length + 1;
  const credentials = {
    appKey: 'dingfakeappkey0001',
    appSecret: `dt-secret-${randomBytes(12).toString('hex')}`,
    operatorId: 'fakeUnionIdiEiE0001',
  };
  const stream = createStreamFake(credentials);
  const workspaces = corpus.spaces.map((name, space) => ({
    workspaceId: shortId('ws', `ws${space}`),
    rootNodeId: shortId('rt', `root${space}`),
    name,
    space,
  }));
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
    stream.publish('doc_content_export_result', JSON.stringify({ bizData: JSON.stringify(bizData) }));
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
    if (fault?.kind === 'rate-limit' || fault?.kind === 'quota')
      return error(
        res,
        403,
        String(fault.code ?? 'Forbidden.AccessDenied.QpsLimitForAppkeyAndApi'),
        'App key QPS limit exceeded for this API.',
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
      const slice = page(workspaces, url.searchParams.get('nextToken') ?? undefined, size);
      const items = slice.items.map(({ space: _space, ...ws }) => ({
        ...ws,
        type: 'TEAM',
        url: `https://alidocs.dingtalk.com/i/spaces/${ws.workspaceId}/overview`,
        createTime: '2024-01-01T00:00Z',
        modifiedTime: '2024-06-01T00:00Z',
        corpId: 'dingfakecorp',
      }));
      return sendJson(
        res,
        200,
        slice.next ? { workspaces: items, nextToken: slice.next } : { workspaces: items },
      );
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
    documents: () =>
      [...docs.values()].map((doc) => ({
        key: doc.key,
        externalId: shortId('nd', doc.key),
        title: doc.title,
        knowledgeBase: workspaces[doc.space]!.name,
        url: nodeUrl(shortId('nd', doc.key)),
        markdown: doc.markdown,
        modifiedTime: doc.updatedAt,
      })),
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => error(res, 500, 'InternalError', String(err)));
  });
  stream.attach(server);
  const { baseUrl, close } = await listenLocal(server, timers);
  return {
    baseUrl,
    credentials,
    control,
    close: () => {
      stream.close();
      return close();
    },
  };
}
