/**
 * Tencent IMA (experimental): lists knowledge bases and walks their folders, fetches notes (as
 * Markdown where IMA allows, else plain text) and .md/.txt files, and searches each knowledge base
 * with IMA's own search. Built on IMA's agent OpenAPI, which is documented only inside the ima skill
 * package, so field names and error codes are best-effort (connectors.md §4).
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
import { ImaClient, type ImaHttpTuning } from './ima-client';
import {
  KnowledgeBasePage,
  KnowledgeListPage,
  MediaInfo,
  NoteContent,
  parseData,
  SearchKnowledgePage,
} from './ima-schemas';

export const IMA_LIMITATION: Limitation = {
  code: 'ima.experimental',
  message:
    'Experimental: uses IMA’s agent OpenAPI, documented only inside the ima skill package. Notes and .md/.txt files are indexed; other files are not. IMA has no cross-knowledge-base search, so direct search asks each knowledge base in turn.',
};

/** Files whose bytes are already Markdown or plain text. */
const TEXT_FILE = /\.(md|markdown|txt)$/i;
const FOLDER_PREFIX = 'folder_';
/** IMA's documented maximum for search_knowledge_base (code 51 above it). */
const KB_PAGE_LIMIT = 20;

export interface ImaConnectorOptions {
  /** @default 1 */
  requestsPerSecond?: number;
  /** Items asked for per get_knowledge_list page. @default 50 */
  pageSize?: number;
  /** @default '1.1.2' */
  skillVersion?: string;
  http?: ImaHttpTuning;
}

interface KnowledgeBase {
  id: string;
  name: string;
}

export class ImaConnector implements Connector {
  readonly platform = 'ima' as const;
  readonly capabilities: ConnectorCapabilities = {
    fullText: true,
    search: true,
    experimental: true,
    limitation: IMA_LIMITATION,
  };
  private readonly client: ImaClient;
  private readonly logger: Logger;
  private readonly pageSize: number;
  private readonly missingCredential: string | null;
  private knowledgeBaseCache: Promise<KnowledgeBase[]> | null = null;
  /** Set once IMA refuses the Markdown flag, so later notes go straight to plain text. */
  private markdownRefused = false;

  constructor(init: ConnectorInit, options: ImaConnectorOptions = {}) {
    this.logger = init.logger.child('ima');
    this.pageSize = options.pageSize ?? 50;
    const clientId = String(init.config.clientId ?? '').trim();
    const apiKey = init.secrets.apiKey ?? '';
    this.client = new ImaClient({
      baseUrl: String(init.config.baseUrl || PLATFORM_INFO.ima.defaultBaseUrl),
      clientId,
      apiKey,
      logger: this.logger,
      requestsPerSecond: options.requestsPerSecond,
      skillVersion: options.skillVersion,
      http: options.http,
    });
    this.missingCredential = !clientId ? 'client ID' : !apiKey ? 'API key' : null;
  }

  async validate(signal?: AbortSignal): Promise<string> {
    const first = await this.knowledgeBasePage('', signal);
    const names = (first.info_list ?? []).map((kb) => kb.kb_name);
    return names.length === 0
      ? 'Connected to IMA (experimental), but no knowledge bases are visible.'
      : `Connected to IMA (experimental); knowledge bases are visible (e.g. "${names[0]}").`;
  }

  async *list(signal?: AbortSignal): AsyncIterable<DocumentRef> {
    const seen = new Set<string>();
    for (const kb of await this.knowledgeBases(signal, true)) {
      const folders: (string | undefined)[] = [undefined];
      const visited = new Set<string | undefined>();
      while (folders.length > 0) {
        const folder = folders.shift();
        if (visited.has(folder)) continue;
        visited.add(folder);
        let cursor = '';
        for (;;) {
          const body = {
            knowledge_base_id: kb.id,
            cursor,
            limit: this.pageSize,
            ...(folder ? { folder_id: folder } : {}),
          };
          const page = parseData(
            KnowledgeListPage,
            await this.call('wiki/v1/get_knowledge_list', body, signal),
            'get_knowledge_list',
          );
          for (const item of page.knowledge_list ?? []) {
            if (item.media_id.startsWith(FOLDER_PREFIX)) folders.push(item.media_id);
            else if (!seen.has(item.media_id)) {
              seen.add(item.media_id);
              // No edit time at list level: revision null makes the engine compare content hashes.
              yield {
                externalId: item.media_id,
                title: item.title || item.media_id,
                knowledgeBase: kb.name,
                url: null,
                remoteUpdatedAt: null,
                revision: null,
              };
            }
          }
          if (page.is_end || !page.next_cursor || page.next_cursor === cursor) break;
          cursor = page.next_cursor;
        }
      }
    }
  }

  async fetch(ref: DocumentRef, signal?: AbortSignal): Promise<FetchedDocument> {
    const info = parseData(
      MediaInfo,
      await this.call('wiki/v1/get_media_info', { media_id: ref.externalId }, signal),
      'get_media_info',
    );
    if (info.notebook_ext_info)
      return { markdown: await this.noteText(info.notebook_ext_info.notebook_id, signal) };
    if (!info.url_info)
      throw new CairnError('UNSUPPORTED', `IMA offers no readable content for "${ref.title}".`);
    const link = new URL(info.url_info.url);
    if (!TEXT_FILE.test(ref.title) && !TEXT_FILE.test(link.pathname)) {
      // IMA has no server-side text export for uploaded files (connectors.md §4.3).
      throw new CairnError(
        'UNSUPPORTED',
        `"${ref.title}" is not a text file; Cairn indexes IMA notes and .md/.txt files only.`,
      );
    }
    const file = await this.client.download(info.url_info.url, info.url_info.headers ?? {}, signal);
    return { markdown: file.text };
  }

  async search(query: string, options: { limit: number; signal?: AbortSignal }): Promise<DirectHit[]> {
    const keyword = query.trim();
    if (!keyword || options.limit <= 0) return [];
    const hits: DirectHit[] = [];
    const seen = new Set<string>();
    for (const kb of await this.knowledgeBases(options.signal, false)) {
      let cursor = '';
      for (;;) {
        const data = await this.call(
          'wiki/v1/search_knowledge',
          { query: keyword, knowledge_base_id: kb.id, cursor },
          options.signal,
        );
        const page = parseData(SearchKnowledgePage, data, 'search_knowledge');
        for (const item of page.info_list ?? []) {
          if (item.media_id.startsWith(FOLDER_PREFIX) || seen.has(item.media_id)) continue;
          seen.add(item.media_id);
          // highlight_content is empty for title-only matches; it may carry highlight markup.
          const snippet = (item.highlight_content ?? '').replace(/<\/?[a-z][^>]*>/gi, '').trim();
          hits.push({
            externalId: item.media_id,
            title: item.title || item.media_id,
            snippet,
            url: null,
            knowledgeBase: kb.name,
          });
          if (hits.length >= options.limit) return hits;
        }
        if (page.is_end || !page.next_cursor || page.next_cursor === cursor) break;
        cursor = page.next_cursor;
      }
    }
    return hits;
  }

  dispose(): void {
    this.client.clear();
  }

  private call(action: string, body: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
    if (this.missingCredential)
      return Promise.reject(
        new CairnError(
          'INVALID_ARGUMENT',
          `IMA needs a ${this.missingCredential} (from https://ima.qq.com/agent-interface).`,
        ),
      );
    throwIfAborted(signal);
    return this.client.call(action, body, signal);
  }

  private async noteText(noteId: string, signal?: AbortSignal): Promise<string> {
    // Clients disagree on the id field name and on whether format 1 is Markdown (connectors.md §4.2): send both names, try 1, fall back to 0 (plain text).
    const ask = async (format: number) => {
      const data = await this.call(
        'note/v1/get_doc_content',
        { doc_id: noteId, note_id: noteId, target_content_format: format },
        signal,
      );
      return parseData(NoteContent, data, 'get_doc_content').content ?? '';
    };
    if (!this.markdownRefused) {
      try {
        const markdown = await ask(1);
        if (markdown.trim()) return markdown;
      } catch (error) {
        if (
          !(error instanceof CairnError) ||
          !['INVALID_ARGUMENT', 'UNSUPPORTED', 'SOURCE_ERROR'].includes(error.code)
        )
          throw error;
        this.markdownRefused = true;
        this.logger.info('IMA refused Markdown note export; using plain text', { code: error.code });
      }
    }
    return ask(0);
  }

  private knowledgeBasePage(cursor: string, signal?: AbortSignal) {
    return this.call(
      'wiki/v1/search_knowledge_base',
      { query: '', cursor, limit: KB_PAGE_LIMIT },
      signal,
    ).then((data) => parseData(KnowledgeBasePage, data, 'search_knowledge_base'));
  }

  /** Every knowledge base (an empty query lists all). Listing refreshes the cache search uses. */
  private knowledgeBases(signal: AbortSignal | undefined, fresh: boolean): Promise<KnowledgeBase[]> {
    if (fresh || !this.knowledgeBaseCache) {
      const loading = (async () => {
        const all: KnowledgeBase[] = [];
        let cursor = '';
        for (;;) {
          const page = await this.knowledgeBasePage(cursor, signal);
          for (const kb of page.info_list ?? []) all.push({ id: kb.kb_id, name: kb.kb_name });
          if (page.is_end || !page.next_cursor || page.next_cursor === cursor) return all;
          cursor = page.next_cursor;
        }
      })();
      this.knowledgeBaseCache = loading;
      loading.catch(() => {
        if (this.knowledgeBaseCache === loading) this.knowledgeBaseCache = null;
      });
      return loading;
    }
    return this.knowledgeBaseCache;
  }
}

export const imaDescriptor: ConnectorDescriptor = {
  platform: 'ima',
  userSignIn: false,
  limitation: () => IMA_LIMITATION,
  createFactory: () => (init) => new ImaConnector(init),
};
