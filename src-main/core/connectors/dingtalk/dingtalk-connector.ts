/**
 * DingTalk (钉钉) knowledge bases: lists the user's knowledge-base workspaces and "My Docs"
 * (/v2.0/wiki/workspaces, /v2.0/wiki/mineWorkspaces) and their node trees, reads each online
 * document's text synchronously through the documented blocks API
 * (/v1.0/doc/suites/documents/{dentryUuid}/blocks), and, where the connection receives DingTalk
 * Stream events, falls back to the asynchronous Markdown export (dingtalk/stream-client.ts) for a
 * document the blocks API cannot read. Searches with /v2.0/doc/search. Every call is made on
 * behalf of a user (operatorId = unionId), given directly or derived from the userId the admin
 * console shows (docs/connectors.md "DingTalk").
 */
import { CairnError, isAbortError, throwIfAborted } from '../../errors';
import type { Logger } from '../../logging/logger';
import type { CoreMessage } from '@shared/models';
import type {
  Connector,
  ConnectorCapabilities,
  ConnectorInit,
  DirectHit,
  DocumentRef,
  FetchedDocument,
  Limitation,
  ConnectorDescriptor,
  ListingReport,
} from '../connector';
import { DEFERRING_CODES, platformGap } from '../connector';
import { blocksToMarkdown } from './dingtalk-blocks';
import { DingTalkClient, type HttpTuning } from './dingtalk-client';
import { dingTalkHosts } from './dingtalk-hosts';
import { DINGTALK_STEPS } from './dingtalk-permissions';
import {
  BlocksAnswer,
  ContentTask,
  MineWorkspace,
  NodePage,
  parseBody,
  SearchPage,
  WorkspacePage,
  type WikiNode,
} from './dingtalk-schemas';
import { ExportWaiter, type ExportEventSource, type ExportResult } from './export-events';
import { DingTalkStreamHub } from './stream-hub';

/** Stream off: full text through the blocks API alone. */
export const DINGTALK_NO_STREAM_LIMITATION: Limitation = {
  code: 'dingtalk.blocks',
  message:
    'full text comes from DingTalk’s document blocks API, which returns a document’s top-level blocks: text nested inside them may be missing. Only online documents (.adoc) are indexed; turn on “Receive full text over DingTalk Stream” to fall back to DingTalk’s Markdown export.',
};

/** Stream on: the blocks API first, the Markdown export over Stream where it cannot read a document. */
export const DINGTALK_STREAM_LIMITATION: Limitation = {
  code: 'dingtalk.blocks-stream',
  message:
    'Beta: full text comes from DingTalk’s document blocks API, and over DingTalk Stream (the doc_content_export_result event must be subscribed in the developer console) for documents it cannot read; only online documents (.adoc) are indexed.',
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
  /** Blocks asked for per range of the blocks query (startIndex…endIndex). @default 100 */
  blockRange?: number;
  /** @default Date.now */
  now?: () => number;
}

interface Workspace {
  workspaceId: string;
  name: string;
  rootNodeId: string;
}

/** Only ALIDOC online documents have blocks and a Markdown export (connectors.md "DingTalk"). */
function isMarkdownDoc(node: WikiNode): boolean {
  return node.type === 'FILE' && node.category === 'ALIDOC' && node.extension === 'adoc';
}

function isoOrNull(value: string | null | undefined): string | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** At most this many block ranges per document (100,000 first-level blocks at the default range). */
const MAX_BLOCK_RANGES = 1000;

/** How full text arrives, as the end of the Test sentence (the UI says the same by `fullText`). */
const FULL_TEXT_NOTES: Record<'blocks' | 'stream' | 'streamUntested', string> = {
  blocks: '. Full text through the document blocks API.',
  stream: '; full text arrives over DingTalk Stream.',
  streamUntested: '; the Stream connection is open (no online document to test the export event with).',
};

/** Blocks-API refusals the Markdown export may still get past. */
const EXPORT_FALLBACK_CODES = new Set([
  'PERMISSION_DENIED',
  'SOURCE_ERROR',
  'UNEXPECTED_RESPONSE',
  'UNSUPPORTED',
]);

export class DingTalkConnector implements Connector {
  readonly platform = 'dingtalk' as const;
  readonly capabilities: ConnectorCapabilities;
  private readonly client: DingTalkClient;
  private readonly configuredOperator: string;
  private readonly userId: string;
  private operator: Promise<string> | null = null;
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
    this.configuredOperator = String(init.config.operatorId ?? '').trim();
    this.userId = String(init.config.userId ?? '').trim();
    const hosts = dingTalkHosts(init.config);
    this.client = new DingTalkClient({
      baseUrl: hosts.api,
      oapiBaseUrl: hosts.oapi,
      appKey: String(init.config.appKey ?? '').trim(),
      appSecret: init.secrets.appSecret ?? '',
      logger: this.logger,
      http: options.http,
      rateLimitWaitMs: options.rateLimitWaitMs,
      now: options.now,
    });
    const stream = options.exportEvents !== undefined;
    this.capabilities = {
      fullText: true,
      search: true,
      experimental: false,
      limitation: stream ? DINGTALK_STREAM_LIMITATION : DINGTALK_NO_STREAM_LIMITATION,
    };
  }

  /**
   * Checks the app credentials and the user; with Stream on, also that an export event really
   * arrives. What was found goes in params too (`operator`, `workspaces`, `fullText` cases, the
   * unionId, user and an example knowledge base as DingTalk named them), for the UI's language.
   */
  async validate(signal?: AbortSignal): Promise<CoreMessage> {
    const operator = await this.operatorId(signal);
    const derived = this.configuredOperator ? '' : ` (unionId ${operator} of user ${this.userId})`;
    const first = await this.workspacePage(undefined, 1, signal);
    const names = (first.workspaces ?? []).map((ws) => ws.name);
    const connected =
      names.length === 0
        ? `Connected to DingTalk${derived}; no knowledge base is visible to this user yet (My Docs is listed on sync)`
        : `Connected to DingTalk${derived}; knowledge bases are visible (e.g. "${names[0]}")`;
    // Every step a sync takes is tried once, so a permission the app lacks is named here, not per document.
    const sample = await this.firstMarkdownDoc(signal);
    if (sample) {
      try {
        await this.blocksRange(sample, 0, 0, signal);
      } catch (error) {
        // With Stream on, the Markdown export reads what the blocks query refuses (probed below).
        if (!(this.options.exportEvents && error instanceof CairnError && error.code === 'PERMISSION_DENIED'))
          throw error;
      }
    }
    const fullText = this.options.exportEvents ? await this.probeStream(sample, signal) : 'blocks';
    return {
      message: `${connected}${FULL_TEXT_NOTES[fullText]}`,
      code: 'connection.dingtalkOk',
      params: {
        operator: this.configuredOperator ? 'configured' : 'derived',
        unionId: operator,
        userId: this.userId,
        workspaces: names.length === 0 ? 'none' : 'some',
        example: names[0] ?? '',
        fullText,
      },
    };
  }

  async *list(signal?: AbortSignal, report?: ListingReport): AsyncIterable<DocumentRef> {
    const operatorId = await this.operatorId(signal);
    for await (const workspace of this.allWorkspaces(signal, report)) {
      const seen = new Set<string>();
      const parents = [workspace.rootNodeId];
      while (parents.length > 0) {
        const parent = parents.shift()!;
        if (seen.has(parent)) continue;
        seen.add(parent);
        let nextToken: string | undefined;
        do {
          const query = { parentNodeId: parent, operatorId, maxResults: this.pageSize, nextToken };
          const body = parseBody(
            NodePage,
            await this.client.request({ path: '/v2.0/wiki/nodes', query, signal }, DINGTALK_STEPS.nodes),
            'GET /v2.0/wiki/nodes',
          );
          for (const node of body.nodes ?? []) {
            if (node.type === 'FOLDER' || node.hasChildren) parents.push(node.nodeId);
            if (isMarkdownDoc(node)) yield this.toRef(node, workspace.name);
            else if (node.type === 'FILE')
              report?.skipped({
                externalId: node.nodeId,
                title: node.name,
                kind: (node.extension || node.category || 'file').toLowerCase(),
                reason: 'dingtalk.not-adoc',
                message: 'Only DingTalk online documents (.adoc) have text Cairn can read.',
              });
          }
          nextToken = body.nextToken || undefined;
        } while (nextToken);
      }
    }
  }

  async fetch(ref: DocumentRef, signal?: AbortSignal): Promise<FetchedDocument> {
    throwIfAborted(signal);
    let refusal: CairnError | null = null;
    try {
      const markdown = await this.blocksMarkdown(ref.externalId, signal);
      if (markdown.trim() || !this.options.exportEvents) return { markdown };
    } catch (error) {
      if (!(error instanceof CairnError) || isAbortError(error) || DEFERRING_CODES.has(error.code))
        throw error;
      if (error.code === 'NOT_FOUND')
        throw new CairnError(
          'NOT_FOUND',
          `DingTalk document "${ref.title}" no longer exists; it was probably deleted after listing.`,
        );
      if (!EXPORT_FALLBACK_CODES.has(error.code)) throw error;
      refusal = error;
      if (!this.options.exportEvents)
        throw new CairnError(
          error.code,
          `DingTalk would not give the blocks of "${ref.title}": ${error.message} Turning on Stream lets Cairn try the Markdown export instead.`,
          error.details ? { details: error.details } : {},
        );
    }
    this.logger.info('reading a DingTalk document through the Markdown export', {
      document: ref.externalId,
      why: refusal ? refusal.code : 'the blocks held no text',
    });
    return { markdown: await this.exportedMarkdown(ref, signal) };
  }

  /**
   * GET /v1.0/doc/suites/documents/{docKey}/blocks, read in documented ranges (startIndex, endIndex:
   * "from the startIndex-th block … up to the endIndex-th", both ≥ 0) until a range comes back short.
   * Whether endIndex is inclusive is not stated, so a range of n asked as [s, s + n - 1] counts as full
   * with n - 1 or n blocks, and the next range starts after what came back. An answer longer than the
   * range means the range was ignored: it is the whole document. docKey may be the dentryUuid (the
   * wiki nodeId).
   */
  private async blocksMarkdown(dentryUuid: string, signal?: AbortSignal): Promise<string> {
    const range = Math.max(2, this.options.blockRange ?? 100);
    const blocks: Record<string, unknown>[] = [];
    for (let start = 0, ranges = 0; ranges < MAX_BLOCK_RANGES; ranges++) {
      const page = await this.blocksRange(dentryUuid, start, start + range - 1, signal);
      if (page.length > range) return blocksToMarkdown(page);
      blocks.push(...page);
      if (page.length < range - 1) break;
      start += page.length;
    }
    return blocksToMarkdown(blocks);
  }

  private async blocksRange(
    dentryUuid: string,
    startIndex: number,
    endIndex: number,
    signal?: AbortSignal,
  ): Promise<Record<string, unknown>[]> {
    const answer = parseBody(
      BlocksAnswer,
      await this.client.request(
        {
          path: `/v1.0/doc/suites/documents/${encodeURIComponent(dentryUuid)}/blocks`,
          query: { operatorId: await this.operatorId(signal), startIndex, endIndex },
          signal,
        },
        DINGTALK_STEPS.blocks,
      ),
      'GET /v1.0/doc/suites/documents/{docKey}/blocks',
    );
    if (answer.success === false)
      throw new CairnError('SOURCE_ERROR', 'DingTalk answered the blocks query with success: false.');
    return answer.result?.data ?? [];
  }

  private async exportedMarkdown(ref: DocumentRef, signal?: AbortSignal): Promise<string> {
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
    return this.client.download(result.url, signal);
  }

  async search(query: string, options: { limit: number; signal?: AbortSignal }): Promise<DirectHit[]> {
    const keyword = query.trim();
    if (!keyword || options.limit <= 0) return [];
    const operatorId = await this.operatorId(options.signal);
    const names = this.loadWorkspaceNames(options.signal);
    const hits: DirectHit[] = [];
    let nextToken: string | undefined;
    do {
      const dentryRequest = {
        maxResults: Math.min(20, options.limit - hits.length),
        ...(nextToken ? { nextToken } : {}),
      };
      const raw = await this.client.request(
        {
          method: 'POST',
          path: '/v2.0/doc/search',
          body: { keyword, operatorId, dentryRequest },
          signal: options.signal,
        },
        DINGTALK_STEPS.search,
      );
      const result = parseBody(SearchPage, raw, 'POST /v2.0/doc/search').dentryResult;
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
      const body = await this.client.request(
        { path, query: { operatorId: await this.operatorId(signal), targetFormat: 'markdown' }, signal },
        DINGTALK_STEPS.export,
      );
      const { taskId } = parseBody(ContentTask, body, 'GET /v2.0/doc/query/{dentryUuid}/contents');
      const result = await waiter.wait(String(taskId), timeoutMs, signal, dentryUuid);
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
  private async probeStream(
    sample: string | null,
    signal?: AbortSignal,
  ): Promise<'stream' | 'streamUntested'> {
    await this.options.exportEvents!.ready?.(signal);
    if (!sample) return 'streamUntested';
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
    return 'stream';
  }

  /** The first exportable document, looking at no more than a few pages of the tree. */
  private async firstMarkdownDoc(signal?: AbortSignal): Promise<string | null> {
    let budget = 10;
    for await (const workspace of this.workspaces(signal)) {
      const parents = [workspace.rootNodeId];
      while (parents.length > 0 && budget-- > 0) {
        const query = {
          parentNodeId: parents.shift()!,
          operatorId: await this.operatorId(signal),
          maxResults: this.pageSize,
        };
        const body = parseBody(
          NodePage,
          await this.client.request({ path: '/v2.0/wiki/nodes', query, signal }, DINGTALK_STEPS.nodes),
          'GET /v2.0/wiki/nodes',
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

  /**
   * The unionId every wiki/doc call names as operatorId: the configured one, else derived once from
   * the configured userId through "Query user details" (dingtalk-client.ts unionIdOf).
   */
  private operatorId(signal?: AbortSignal): Promise<string> {
    if (this.configuredOperator) return Promise.resolve(this.configuredOperator);
    if (!this.userId)
      return Promise.reject(
        new CairnError(
          'INVALID_ARGUMENT',
          'DingTalk needs your userId (shown in the admin console under Contacts) or your unionId: every knowledge-base call is made on behalf of that user.',
        ),
      );
    const pending = (this.operator ??= this.client.unionIdOf(this.userId, signal));
    pending.catch(() => {
      if (this.operator === pending) this.operator = null;
    });
    return pending;
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

  private async workspacePage(nextToken: string | undefined, maxResults: number, signal?: AbortSignal) {
    const query = { operatorId: await this.operatorId(signal), maxResults, nextToken };
    const body = await this.client.request(
      { path: '/v2.0/wiki/workspaces', query, signal },
      DINGTALK_STEPS.workspaces,
    );
    return parseBody(WorkspacePage, body, 'GET /v2.0/wiki/workspaces');
  }

  /**
   * The knowledge bases, then the user's own "My Docs" (GET /v2.0/wiki/mineWorkspaces, one
   * workspace) unless /workspaces already listed it: whether /workspaces includes the PERSONAL
   * workspace is not documented. My Docs failing is a reported gap, not the end of the listing.
   */
  private async *allWorkspaces(signal?: AbortSignal, report?: ListingReport): AsyncIterable<Workspace> {
    const seen = new Set<string>();
    for await (const workspace of this.workspaces(signal)) {
      seen.add(workspace.workspaceId);
      yield workspace;
    }
    let mine: Workspace | null | undefined;
    try {
      const body = await this.client.request(
        { path: '/v2.0/wiki/mineWorkspaces', query: { operatorId: await this.operatorId(signal) }, signal },
        DINGTALK_STEPS.myDocs,
      );
      mine = parseBody(MineWorkspace, body, 'GET /v2.0/wiki/mineWorkspaces').workspace;
    } catch (error) {
      if (isAbortError(error) || (error instanceof CairnError && DEFERRING_CODES.has(error.code)))
        throw error;
      if (report)
        report.incomplete(
          platformGap(error, 'DingTalk My Docs (the personal workspace) could not be listed'),
        );
      else this.logger.warn('DingTalk My Docs could not be listed', { error });
      return;
    }
    if (mine && !seen.has(mine.workspaceId)) {
      this.workspaceNames.set(mine.workspaceId, mine.name);
      yield mine;
    }
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
              baseUrl: dingTalkHosts(init.config).api,
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
