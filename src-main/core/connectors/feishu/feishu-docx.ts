/**
 * A docx document as Markdown: docs/v1/content ("获取云文档内容", Markdown, docx only), then the
 * blocks ("获取文档所有块", paged, converted in blocks-to-markdown.ts), then the plain text
 * ("获取文档纯文本内容"). A refusal about the document itself (no permission, gone) stops the chain:
 * the other routes would say the same.
 */
import { CairnError } from '../../errors';
import type { Logger } from '../../logging/logger';
import type { DocumentRef } from '../connector';
import { docxBlocksToMarkdown, type DocxBlock } from './blocks-to-markdown';
import type { FeishuGet } from './feishu-listing';
import { BlocksPage, Content } from './feishu-schemas';

/** Failures the next route can get past: a server error, too large (2889925), an odd answer. */
const FALLBACK_CODES = new Set(['SOURCE_ERROR', 'UNSUPPORTED', 'UNEXPECTED_RESPONSE']);

export async function docxMarkdown(
  get: FeishuGet,
  ref: DocumentRef,
  label: string,
  logger: Logger,
  signal: AbortSignal | undefined,
): Promise<string> {
  const id = encodeURIComponent(ref.externalId);
  const attempts: [string, () => Promise<string>][] = [
    [
      'docs/v1/content',
      async () =>
        (
          await get(
            'GET /open-apis/docs/v1/content',
            '/open-apis/docs/v1/content',
            { doc_token: ref.externalId, doc_type: 'docx', content_type: 'markdown' },
            Content,
            signal,
          )
        ).content,
    ],
    ['blocks', async () => docxBlocksToMarkdown(await allBlocks(get, id, signal))],
    [
      'raw_content',
      async () =>
        (
          await get(
            'GET /open-apis/docx/v1/documents/:document_id/raw_content',
            `/open-apis/docx/v1/documents/${id}/raw_content`,
            {},
            Content,
            signal,
          )
        ).content,
    ],
  ];
  const failures: string[] = [];
  for (const [name, attempt] of attempts) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof CairnError) || !FALLBACK_CODES.has(error.code)) throw error;
      failures.push(`${name}: ${error.message}`);
      logger.info('export path failed; trying the next one', {
        document: ref.externalId,
        path: name,
        code: error.code,
      });
    }
  }
  throw new CairnError(
    'DOCUMENT_FAILED',
    `${label} document "${ref.title}" could not be read as text. ${failures.join(' ')}`,
  );
}

async function allBlocks(get: FeishuGet, id: string, signal: AbortSignal | undefined): Promise<DocxBlock[]> {
  const blocks: DocxBlock[] = [];
  let pageToken: string | undefined;
  for (;;) {
    const page = await get(
      'GET /open-apis/docx/v1/documents/:document_id/blocks',
      `/open-apis/docx/v1/documents/${id}/blocks`,
      { page_size: 500, document_revision_id: -1, page_token: pageToken },
      BlocksPage,
      signal,
    );
    blocks.push(...((page.items ?? []) as unknown as DocxBlock[]));
    if (!page.has_more || !page.page_token || page.page_token === pageToken) return blocks;
    pageToken = page.page_token;
  }
}
