/**
 * Tencent IMA (experimental): lists knowledge bases and walks their folders, fetches notes (as
 * Markdown where IMA allows, else plain text) and .md/.txt files, and searches each knowledge base
 * with IMA's own search. Built on IMA's agent OpenAPI, which is documented only inside the ima skill
 * package, so field names and error codes are best-effort (connectors.md §4).
 */
import { CairnError, throwIfAborted } from '../../errors';
import type { Logger } from '../../logging/logger';
import type { CoreMessage } from '@shared/models';
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
  NoteExport,
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
/** "文件夹是知识条目（media_type=99），其 media_id 即 folder_id" [skill]. */
const FOLDER_MEDIA_TYPE = 99;
/** Folder ids start with this in every client report [3P]: a fallback when media_type is missing. */
const FOLDER_PREFIX = 'folder_';

function isFolder(item: { media_id: string; media_type?: number | null }): boolean {
  return (
    item.media_type === FOLDER_MEDIA_TYPE ||
    (item.media_type == null && item.media_id.startsWith(FOLDER_PREFIX))
  );
}
/** Refusals of one note's Markdown export that its plain text can stand in for. */
const MARKDOWN_REFUSALS = new Set([
  'PERMISSION_DENIED',
  'INVALID_ARGUMENT',
  'UNSUPPORTED',
  'SOURCE_ERROR',
  'UNEXPECTED_RESPONSE',
]);
/** IMA's documented maximum for search_knowledge_base (code 51 above it). */
const KB_PAGE_LIMIT = 20;

export interface ImaConnectorOptions {
  /** @default 1 */
  requestsPerSecond?: number;
  /** Items asked for per get_knowledge_list page. @default 50 */
  pageSize?: number;
  /** The skill version named once IMA asks for a newer client. @default IMA_SKILL_VERSION (ima-client.ts) */
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

  /** With the `visible` case and an example knowledge base (as IMA named it) as params, for the UI's language. */
  async validate(signal?: AbortSignal): Promise<CoreMessage> {
    const first = await this.knowledgeBasePage('', signal);
    const names = (first.info_list ?? []).map((kb) => kb.kb_name);
    return {
      message:
        names.length === 0
          ? 'Connected to IMA (experimental), but no knowledge bases are visible.'
          : `Connected to IMA (experimental); knowledge bases are visible (e.g. "${names[0]}").`,
      code: 'connection.imaOk',
      params: { visible: names.length === 0 ? 'none' : 'some', example: names[0] ?? '' },
    };
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
            'wiki/v1/get_knowledge_list',
          );
          for (const item of page.knowledge_list ?? []) {
            if (isFolder(item)) folders.push(item.media_id);
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
      'wiki/v1/get_media_info',
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
        const page = parseData(SearchKnowledgePage, data, 'wiki/v1/search_knowledge');
        for (const item of page.info_list ?? []) {
          if (item.media_id.startsWith(FOLDER_PREFIX) || seen.has(item.media_id)) continue; // search hits carry no media_type
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

  /**
   * A note's Markdown through note/v1/export_note (target_content_format 1 = Markdown; it answers a
   * signed link, fetched without our credentials), as the ima-note skill documents. Export is
   * refused per note (210005: only the author may export; 220030: export not enabled for the key):
   * that note alone falls back to note/v1/get_doc_content's plain text (format 0); the next note
   * tries Markdown again.
   */
  private async noteText(noteId: string, signal?: AbortSignal): Promise<string> {
    try {
      const data = await this.call(
        'note/v1/export_note',
        { note_id: noteId, target_content_format: 1 },
        signal,
      );
      const { content_url: link } = parseData(NoteExport, data, 'note/v1/export_note');
      const file = await this.client.download(link, {}, signal);
      if (file.text.trim()) return file.text;
    } catch (error) {
      if (!(error instanceof CairnError) || !MARKDOWN_REFUSALS.has(error.code)) throw error;
      this.logger.info('IMA refused the Markdown export of one note; using its plain text', {
        code: error.code,
      });
    }
    const data = await this.call(
      'note/v1/get_doc_content',
      { note_id: noteId, target_content_format: 0 },
      signal,
    );
    return parseData(NoteContent, data, 'note/v1/get_doc_content').content ?? '';
  }

  private knowledgeBasePage(cursor: string, signal?: AbortSignal) {
    return this.call(
      'wiki/v1/search_knowledge_base',
      { query: '', cursor, limit: KB_PAGE_LIMIT },
      signal,
    ).then((data) => parseData(KnowledgeBasePage, data, 'wiki/v1/search_knowledge_base'));
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
