/**
 * DingTalk (钉钉) knowledge bases: lists wiki workspaces and their node trees, searches with
 * /v2.0/doc/search, and fetches Markdown only where the async export event can be received over
 * DingTalk Stream (connectors.md §3, dingtalk/stream-client.ts). Without an event source the
 * connection is direct-search only, and fetch refuses, so the engine never indexes bare titles and
 * calls the connection synced.
 */
import { CairnError, throwIfAborted } from '../../errors';
import type { Logger } from '../../logging/logger';
import { PLATFORM_INFO } from '@shared/platforms';
import type {
  Connector,
  ConnectorCapabilities,
  ConnectorInit,
  DirectHit,
  DocumentRef,
  FetchedDocument,
  Limitation,
  ConnectorDescriptor,
} from '../connector';
import { DingTalkClient, type HttpTuning } from './dingtalk-client';
import {
  ContentTask,
  NodePage,
  parseBody,
  SearchPage,
  WorkspacePage,
  type WikiNode,
} from './dingtalk-schemas';
import { ExportWaiter, type ExportEventSource, type ExportResult } from './export-events';
import { DingTalkStreamHub } from './stream-hub';

export const DINGTALK_NO_STREAM_LIMITATION: Limitation = {
  code: 'dingtalk.no-stream',
  message:
    'full text unavailable: direct search only. DingTalk delivers Markdown only as a Stream-mode event (doc_content_export_result); turn on “Receive full text over DingTalk Stream” for this connection to index it.',
};

export const DINGTALK_STREAM_LIMITATION: Limitation = {
  code: 'dingtalk.stream-beta',
  message:
    'Beta: full text arrives over DingTalk Stream (the doc_content_export_result event must be subscribed in the developer console); only online documents (.adoc) are indexed.',
};

/** The connection option that turns the Stream client on (src-shared/platforms.ts). */
export function streamEventsEnabled(config: ConnectorInit['config']): boolean {
  return config.streamEvents === true || config.streamEvents === 'true';
}

export interface DingTalkConnectorOptions {
  /** Source of export-finished events: a DingTalk Stream connection (dingtalk/stream-client.ts). */
  exportEvents?: ExportEventSource;
  /** Runs on dispose (releases a leased Stream connection). */
  onDispose?: () => void;
  /** How long to wait for one document's export event. @default 60000 */
  exportTimeoutMs?: number;
  /** "Test connection" exports one document and waits this long for its event. @default 8000 */
  probeTimeoutMs?: number;
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
  /** Set once any export event arrived: from then on a timeout is one slow document, not a missing subscription. */
  private exportArrived = false;
  /** Set when the first exports timed out with no event at all: the rest of the sync fails fast with it. */
  private streamSilent: CairnError | null = null;

  constructor(init: ConnectorInit, options: DingTalkConnectorOptions = {}) {
    this.options = options;
    this.logger = init.logger.child('dingtalk');
    this.operatorId = String(init.config.operatorId ?? '').trim();
    this.client = new DingTalkClient({
      baseUrl: String(init.config.baseUrl || PLATFORM_INFO.dingtalk.defaultBaseUrl),
      appKey: String(init.config.appKey ?? '').trim(),
      appSecret: init.secrets.appSecret ?? '',
      logger: this.logger,
      http: options.http,
      rateLimitWaitMs: options.rateLimitWaitMs,
      now: options.now,
    });
    const fullText = options.exportEvents !== undefined;
    this.capabilities = {
      fullText,
      search: true,
      experimental: false,
      limitation: fullText ? DINGTALK_STREAM_LIMITATION : DINGTALK_NO_STREAM_LIMITATION,
    };
  }

  /** Checks the app credentials and operator; with Stream on, also that an export event really arrives. */
  async validate(signal?: AbortSignal): Promise<string> {
    const first = await this.workspacePage(undefined, 1, signal);
    const names = (first.workspaces ?? []).map((ws) => ws.name);
    if (names.length === 0) return 'Connected to DingTalk, but this operator can see no knowledge bases.';
    const connected = `Connected to DingTalk; knowledge bases are visible (e.g. "${names[0]}")`;
    if (!this.options.exportEvents) return `${connected}. Direct search only (Stream is off).`;
    return `${connected}; ${await this.probeStream(signal)}`;
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
          const query = {
            parentNodeId: parent,
            operatorId: this.requireOperatorId(),
            maxResults: this.pageSize,
            nextToken,
          };
          const body = parseBody(
            NodePage,
            await this.client.request({ path: '/v2.0/wiki/nodes', query, signal }),
            'wiki nodes',
          );
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
    if (!this.options.exportEvents)
      throw new CairnError('UNSUPPORTED', DINGTALK_NO_STREAM_LIMITATION.message);
    throwIfAborted(signal);
    if (this.streamSilent) throw this.streamSilent;
    let result: ExportResult;
    try {
      result = await this.exportMarkdown(ref.externalId, this.options.exportTimeoutMs ?? 60_000, signal);
    } catch (error) {
      if (error instanceof CairnError && error.code === 'TIMEOUT' && !this.exportArrived) {
        // Not one slow document: no event has come at all, so the subscription is missing. Say so once and stop asking.
        this.streamSilent ??= new CairnError(
          'TIMEOUT',
          `No DingTalk export event arrived over Stream within ${+((this.options.exportTimeoutMs ?? 60_000) / 1000).toFixed(1)} s, so the remaining documents were not requested. In the developer console, push events over Stream and subscribe to the document export event (doc_content_export_result), or turn Stream off for this connection.`,
        );
        throw this.streamSilent;
      }
      throw error;
    }
    if (!result.success || !result.url)
      throw new CairnError('DOCUMENT_FAILED', `DingTalk could not export "${ref.title}" as Markdown.`);
    return { markdown: await this.client.download(result.url, signal) };
  }

  async search(query: string, options: { limit: number; signal?: AbortSignal }): Promise<DirectHit[]> {
    const keyword = query.trim();
    if (!keyword || options.limit <= 0) return [];
    const names = this.loadWorkspaceNames(options.signal);
    const hits: DirectHit[] = [];
    let nextToken: string | undefined;
    do {
      const dentryRequest = {
        maxResults: Math.min(20, options.limit - hits.length),
        ...(nextToken ? { nextToken } : {}),
      };
      const raw = await this.client.request({
        method: 'POST',
        path: '/v2.0/doc/search',
        body: { keyword, operatorId: this.requireOperatorId(), dentryRequest },
        signal: options.signal,
      });
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
    this.options.onDispose?.();
  }

  /** Requests the Markdown export of one document and waits for its Stream event. */
  private async exportMarkdown(
    dentryUuid: string,
    timeoutMs: number,
    callerSignal?: AbortSignal,
  ): Promise<ExportResult> {
    const source = this.options.exportEvents!;
    // A sync runs 16 of these on one signal; a derived signal keeps our abort listeners off the caller's (Node warns past 10).
    const signal = callerSignal ? AbortSignal.any([callerSignal]) : undefined;
    // Listen before asking: the event can arrive before the HTTP answer does.
    const waiter = new ExportWaiter(source);
    try {
      // Refused credentials or an unreachable gateway fail here, before DingTalk is asked for anything.
      await source.ready?.(signal);
      const path = `/v2.0/doc/query/${encodeURIComponent(dentryUuid)}/contents`;
      const body = await this.client.request({
        path,
        query: { operatorId: this.requireOperatorId(), targetFormat: 'markdown' },
        signal,
      });
      const { taskId } = parseBody(ContentTask, body, 'document content');
      const result = await waiter.wait(String(taskId), timeoutMs, signal);
      this.exportArrived = true;
      return result;
    } finally {
      waiter.close();
    }
  }

  /**
   * Opens the Stream connection and exports the first online document found, so a missing event
   * subscription shows up in "Test connection" instead of as a timeout per document in the next sync.
   */
  private async probeStream(signal?: AbortSignal): Promise<string> {
    await this.options.exportEvents!.ready?.(signal);
    const sample = await this.firstMarkdownDoc(signal);
    if (!sample) return 'the Stream connection is open (no online document to test the export event with).';
    const timeoutMs = this.options.probeTimeoutMs ?? 8000;
    try {
      await this.exportMarkdown(sample, timeoutMs, signal);
    } catch (error) {
      if (!(error instanceof CairnError && error.code === 'TIMEOUT')) throw error;
      throw new CairnError(
        'TIMEOUT',
        `Connected to DingTalk and its Stream gateway, but no document export event arrived within ${+(timeoutMs / 1000).toFixed(1)} s. In the developer console, push events over Stream and subscribe to the document export event (doc_content_export_result), or turn Stream off for this connection.`,
      );
    }
    return 'full text arrives over DingTalk Stream.';
  }

  /** The first exportable document, looking at no more than a few pages of the tree. */
  private async firstMarkdownDoc(signal?: AbortSignal): Promise<string | null> {
    let budget = 10;
    for await (const workspace of this.workspaces(signal)) {
      const parents = [workspace.rootNodeId];
      while (parents.length > 0 && budget-- > 0) {
        const query = {
          parentNodeId: parents.shift()!,
          operatorId: this.requireOperatorId(),
          maxResults: this.pageSize,
        };
        const body = parseBody(
          NodePage,
          await this.client.request({ path: '/v2.0/wiki/nodes', query, signal }),
          'wiki nodes',
        );
        const doc = (body.nodes ?? []).find(isMarkdownDoc);
        if (doc) return doc.nodeId;
        for (const node of body.nodes ?? [])
          if (node.type === 'FOLDER' || node.hasChildren) parents.push(node.nodeId);
      }
      if (budget <= 0) return null;
    }
    return null;
  }

  private get pageSize(): number {
    return this.options.pageSize ?? 30;
  }

  private requireOperatorId(): string {
    if (!this.operatorId)
      throw new CairnError(
        'INVALID_ARGUMENT',
        'DingTalk needs operatorId (your unionId): every knowledge-base call is made on behalf of that user.',
      );
    return this.operatorId;
  }

  private toRef(node: WikiNode, knowledgeBase: string): DocumentRef {
    return {
      externalId: node.nodeId,
      title: node.name,
      knowledgeBase,
      url: node.url || null,
      remoteUpdatedAt: isoOrNull(node.modifiedTime),
      revision: node.modifiedTime || null,
    };
  }

  private workspacePage(nextToken: string | undefined, maxResults: number, signal?: AbortSignal) {
    const query = { operatorId: this.requireOperatorId(), maxResults, nextToken };
    return this.client
      .request({ path: '/v2.0/wiki/workspaces', query, signal })
      .then((body) => parseBody(WorkspacePage, body, 'workspaces'));
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

/** The registry's factory: a Stream event source, leased from `streams`, when the connection turned Stream on. */
export function createDingTalkConnector(streams: DingTalkStreamHub): (init: ConnectorInit) => Connector {
  return (init) => {
    if (!streamEventsEnabled(init.config)) return new DingTalkConnector(init);
    const appKey = String(init.config.appKey ?? '').trim();
    const appSecret = init.secrets.appSecret ?? '';
    const lease =
      appKey && appSecret
        ? streams.lease(
            {
              baseUrl: String(init.config.baseUrl || PLATFORM_INFO.dingtalk.defaultBaseUrl),
              clientId: appKey,
              clientSecret: appSecret,
            },
            init.logger.child('dingtalk'),
          )
        : null;
    return new DingTalkConnector(init, lease ? { exportEvents: lease.source, onDispose: lease.release } : {});
  };
}

export const dingTalkDescriptor: ConnectorDescriptor = {
  platform: 'dingtalk',
  userSignIn: false,
  // The Stream limitation needs what the Stream client needs: the option, the app key and its secret.
  limitation: (config, secretFields) =>
    streamEventsEnabled(config) && secretFields.includes('appSecret') && String(config.appKey ?? '').trim()
      ? DINGTALK_STREAM_LIMITATION
      : DINGTALK_NO_STREAM_LIMITATION,
  // Connectors of one app share one Stream connection, opened only while one of them needs it.
  createFactory: () => createDingTalkConnector(new DingTalkStreamHub()),
};
