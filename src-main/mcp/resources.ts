/**
 * Every indexed document as an MCP resource:
 *   cairn://document/<id>                     the document's Markdown (text/markdown)
 *   cairn://connection/<connectionId>/documents  one connection's documents, listed (JSON)
 * resources/list pages through all documents (a cursor per 200), so an index of 100,000 documents
 * never becomes one giant answer; the SDK's McpServer lists template resources in one piece, so
 * these handlers sit on its low-level server.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { DocumentSummary } from '@shared/models';
import type { CairnAccess } from './cairn-access';
import { unwrapOrThrow } from './tool-errors';

const PAGE = 200;

export function documentUri(id: number): string {
  return `cairn://document/${id}`;
}

function describe(document: DocumentSummary): string {
  return [document.platform, document.knowledgeBase, document.url].filter(Boolean).join(' · ');
}

function resourceOf(document: DocumentSummary) {
  return {
    uri: documentUri(document.id),
    name: document.title,
    title: document.title,
    description: describe(document),
    mimeType: 'text/markdown',
    annotations: { audience: ['assistant' as const], lastModified: document.updatedAt ?? document.indexedAt },
  };
}

export function registerResources(server: McpServer, access: CairnAccess): void {
  const low = server.server;
  low.registerCapabilities({ resources: {} });

  low.setRequestHandler(ListResourcesRequestSchema, async (request, extra) => {
    const offset = parseCursor(request.params?.cursor);
    const page = unwrapOrThrow(
      await access.call((cairn) => cairn.cancellable(extra.signal).documents.list({ offset, limit: PAGE })),
      'list documents',
    );
    const next = offset + page.documents.length;
    return {
      resources: page.documents.map(resourceOf),
      ...(next < page.total ? { nextCursor: String(next) } : {}),
    };
  });

  low.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: 'cairn://document/{documentId}',
        name: 'document',
        title: 'An indexed document',
        description: 'One document of the Cairn index as Markdown (the id search and fetch use as d<id>).',
        mimeType: 'text/markdown',
      },
      {
        uriTemplate: 'cairn://connection/{connectionId}/documents',
        name: 'connection-documents',
        title: "A connection's documents",
        description: 'The documents of one connection (ids from list_sources), with their resource URIs.',
        mimeType: 'application/json',
      },
    ],
  }));

  low.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const uri = request.params.uri;
    const document = /^cairn:\/\/document\/(\d{1,15})$/.exec(uri);
    if (document) {
      const read = await access.call((cairn) =>
        cairn.cancellable(extra.signal).documents.get({ documentId: Number(document[1]) }),
      );
      if (!read.ok && read.error.code === 'NOT_FOUND')
        throw new McpError(ErrorCode.InvalidParams, `No indexed document at ${uri}.`);
      const view = unwrapOrThrow(read, `read ${uri}`);
      return {
        contents: [
          {
            uri,
            mimeType: 'text/markdown',
            text: view.markdown,
            // Marked for clients that pass resources to a model: the text is the user's data.
            _meta: { contentTrust: 'untrusted', title: view.title, link: view.url },
          },
        ],
      };
    }
    const listing = /^cairn:\/\/connection\/([^/]{1,200})\/documents$/.exec(uri);
    if (listing) {
      const connectionId = decodeURIComponent(listing[1]!);
      const documents: DocumentSummary[] = [];
      for (let offset = 0; ; offset += 1_000) {
        const page = unwrapOrThrow(
          await access.call((cairn) =>
            cairn.cancellable(extra.signal).documents.list({ connectionId, offset, limit: 1_000 }),
          ),
          `list the documents of ${connectionId}`,
        );
        documents.push(...page.documents);
        if (documents.length >= page.total || page.documents.length === 0 || documents.length >= 10_000)
          break;
      }
      return {
        contents: [
          {
            uri,
            mimeType: 'application/json',
            text: JSON.stringify(
              documents.map((entry) => ({ uri: documentUri(entry.id), title: entry.title, ...pick(entry) })),
              null,
              1,
            ),
          },
        ],
      };
    }
    throw new McpError(ErrorCode.InvalidParams, `Unknown resource ${uri.slice(0, 200)}.`);
  });
}

function pick(entry: DocumentSummary) {
  return { knowledge_base: entry.knowledgeBase, link: entry.url, updated: entry.updatedAt };
}

function parseCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  if (!/^\d{1,12}$/.test(cursor)) throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor.');
  return Number(cursor);
}
