/**
 * DingTalk (钉钉) knowledge bases: lists wiki workspaces and their node trees, searches with
 * /v2.0/doc/search, and fetches Markdown only where the async export event can be received
 * (connectors.md §3). Without an event source the connection is direct-search only, and fetch
 * refuses, so the engine never indexes bare titles and calls the connection synced.
 */
import { CairnError, throwIfAborted } from '../errors';
import type { Logger } from '../logging/logger';
import type { Connector, ConnectorCapabilities, ConnectorInit, DirectHit, DocumentRef, FetchedDocument } from './connector';
import { DingTalkClient, type HttpTuning } from './dingtalk/dingtalk-client';
import { ContentTask, NodePage, parseBody, SearchPage, WorkspacePage, type WikiNode } from './dingtalk/dingtalk-schemas';
import { ExportWaiter, type ExportEventSource } from './dingtalk/export-events';

export const DINGTALK_DEFAULT_BASE_URL = 'https://api.dingtalk.com';

export const DINGTALK_NO_STREAM_LIMITATION =
  'full text unavailable: direct search only. DingTalk delivers Markdown only as a Stream-mode event (doc_content_export_result), and Cairn has no DingTalk Stream client wired yet.';

export const DINGTALK_STREAM_LIMITATION =
  'Beta: full text needs DingTalk Stream event subscription (doc_content_export_result); only online documents (.adoc) are indexed.';

export interface DingTalkConnectorOptions {
  /** Source of export-finished events (a DingTalk Stream connection in production; not wired yet). */
  exportEvents?: ExportEventSource;
  /** How long to wait for one document's export event. @default 60000 */
  exportTimeoutMs?: number;
  http?: HttpTuning;
  /** @default 1000 */
  rateLimitWaitMs?: number;
  /** maxResults asked for per page. @default 30 */
  pageSize?: number;
  /** @default Date.now */
  now?: () => number;
}

interface Workspace {
  workspaceId: string;
  name: string;
  rootNodeId: string;
}

/** Only ALIDOC online documents can be exported as Markdown (connectors.md §3.3). */
function isMarkdownDoc(node: WikiNode): boolean {
  return node.type === 'FILE' && node.category === 'ALIDOC' && node.extension === 'adoc';
}

function isoOrNull(value: string | null | undefined): string | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

export class DingTalkConnector implements Connector {
  readonly platform = 'dingtalk' as const;
  readonly capabilities: ConnectorCapabilities;
  private readonly client: DingTalkClient;
  private readonly operatorId: string;
  private readonly logger: Logger;
  private readonly options: DingTalkConnectorOptions;
  private readonly workspaceNames = new Map<string, string>();
  private namesLoading: Promise<void> | null = null;

  constructor(init: ConnectorInit, options: DingTalkConnectorOptions = {}) {
    this.options = options;
    this.logger = init.logger.child('dingtalk');
    this.operatorId = String(init.config.operatorId ?? '').trim();
    this.client = new DingTalkClient({
      baseUrl: String(init.config.baseUrl || DINGTALK_DEFAULT_BASE_URL),
      appKey: String(init.config.appKey ?? '').trim(),
      appSecret: init.secrets.appSecret ?? '',
      logger: this.logger,
      http: options.http,
      rateLimitWaitMs: options.rateLimitWaitMs,
      now: options.now,
    });
    const fullText = options.exportEvents !== undefined;
    this.capabilities = { fullText, search: true, experimental: false, limitation: fullText ? DINGTALK_STREAM_LIMITATION : DINGTALK_NO_STREAM_LIMITATION };
  }

  async validate(signal?: AbortSignal): Promise<string> {
    const first = await this.workspacePage(undefined, 1, signal);
    const names = (first.workspaces ?? []).map((ws) => ws.name);
    return names.length === 0
      ? 'Connected to DingTalk, but this operator can see no knowledge bases.'
      : `Connected to DingTalk; knowledge bases are visible (e.g. "${names[0]}").`;
  }

  async *list(signal?: AbortSignal): AsyncIterable<DocumentRef> {
    for await (const workspace of this.workspaces(signal)) {
      const seen = new Set<string>();
      const parents = [workspace.rootNodeId];
      while (parents.length > 0) {
        const parent = parents.shift()!;
        if (seen.has(parent)) continue;
        seen.add(parent);
        let nextToken: string | undefined;
        do {
          const query = { parentNodeId: parent, operatorId: this.requireOperatorId(), maxResults: this.pageSize, nextToken };
          const body = parseBody(NodePage, await this.client.request({ path: '/v2.0/wiki/nodes', query, signal }), 'wiki nodes');
          for (const node of body.nodes ?? []) {
            if (node.type === 'FOLDER' || node.hasChildren) parents.push(node.nodeId);
            if (isMarkdownDoc(node)) yield this.toRef(node, workspace.name);
          }
          nextToken = body.nextToken || undefined;
        } while (nextToken);
      }
    }
  }

  async fetch(ref: DocumentRef, signal?: AbortSignal): Promise<FetchedDocument> {
    const source = this.options.exportEvents;
    if (!source) throw new CairnError('UNSUPPORTED', DINGTALK_NO_STREAM_LIMITATION);
    throwIfAborted(signal);
    // Listen before asking: the event can arrive before the HTTP answer does.
    const waiter = new ExportWaiter(source);
    try {
      const path = `/v2.0/doc/query/${encodeURIComponent(ref.externalId)}/contents`;
      const body = await this.client.request({ path, query: { operatorId: this.requireOperatorId(), targetFormat: 'markdown' }, signal });
      const { taskId } = parseBody(ContentTask, body, 'document content');
      const result = await waiter.wait(String(taskId), this.options.exportTimeoutMs ?? 60_000, signal);
      if (!result.success || !result.url) throw new CairnError('DOCUMENT_FAILED', `DingTalk could not export "${ref.title}" as Markdown.`);
      return { markdown: await this.client.download(result.url, signal) };
    } finally {
      waiter.close();
    }
  }

  async search(query: string, options: { limit: number; signal?: AbortSignal }): Promise<DirectHit[]> {
    const keyword = query.trim();
    if (!keyword || options.limit <= 0) return [];
    const names = this.loadWorkspaceNames(options.signal);
    const hits: DirectHit[] = [];
    let nextToken: string | undefined;
    do {
      const dentryRequest = { maxResults: Math.min(20, options.limit - hits.length), ...(nextToken ? { nextToken } : {}) };
      const raw = await this.client.request({ method: 'POST', path: '/v2.0/doc/search', body: { keyword, operatorId: this.requireOperatorId(), dentryRequest }, signal: options.signal });
      const result = parseBody(SearchPage, raw, 'search').dentryResult;
      await names;
      for (const item of result?.items ?? []) {
        hits.push({
          externalId: item.dentryUuid,
          title: item.name || item.originName || item.dentryUuid,
          // Snippets may carry highlight markup; the hit shows plain text.
          snippet: (item.content ?? '').replace(/<\/?[a-z][^>]*>/gi, '').trim(),
          url: item.url || null,
          knowledgeBase: (item.spaceId && this.workspaceNames.get(item.spaceId)) || 'DingTalk',
        });
      }
      nextToken = result?.hasMore ? result.nextToken || undefined : undefined;
    } while (nextToken && hits.length < options.limit);
    return hits.slice(0, options.limit);
  }

  dispose(): void {
    this.client.clear();
  }

  private get pageSize(): number {
    return this.options.pageSize ?? 30;
  }

  private requireOperatorId(): string {
    if (!this.operatorId) throw new CairnError('INVALID_ARGUMENT', 'DingTalk needs operatorId (your unionId): every knowledge-base call is made on behalf of that user.');
    return this.operatorId;
  }

  private toRef(node: WikiNode, knowledgeBase: string): DocumentRef {
    return { externalId: node.nodeId, title: node.name, knowledgeBase, url: node.url || null, remoteUpdatedAt: isoOrNull(node.modifiedTime), revision: node.modifiedTime || null };
  }

  private workspacePage(nextToken: string | undefined, maxResults: number, signal?: AbortSignal) {
    const query = { operatorId: this.requireOperatorId(), maxResults, nextToken };
    return this.client.request({ path: '/v2.0/wiki/workspaces', query, signal }).then((body) => parseBody(WorkspacePage, body, 'workspaces'));
  }

  private async *workspaces(signal?: AbortSignal): AsyncIterable<Workspace> {
    let nextToken: string | undefined;
    do {
      const body = await this.workspacePage(nextToken, this.pageSize, signal);
      for (const ws of body.workspaces ?? []) {
        this.workspaceNames.set(ws.workspaceId, ws.name);
        yield ws;
      }
      nextToken = body.nextToken || undefined;
    } while (nextToken);
  }

  /** Search hits carry only a spaceId; names come from the workspace list, loaded once. A failure only costs the names. */
  private loadWorkspaceNames(signal?: AbortSignal): Promise<void> {
    if (this.workspaceNames.size > 0) return Promise.resolve();
    this.namesLoading ??= (async () => {
      for await (const _workspace of this.workspaces(signal)) {
        // workspaces() records each name as it goes.
      }
    })().catch((error: unknown) => {
      this.namesLoading = null;
      this.logger.warn('could not load DingTalk knowledge-base names for search hits', { error });
    });
    return this.namesLoading;
  }
}
