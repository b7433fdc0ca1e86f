import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCairn, type CairnInternals } from '../app/create-cairn';
import { silentLogger } from '../logging/logger';
import { syncToEnd, unwrap } from '../../testing/integration-kit';

const LONG_SECTION = Array.from(
  { length: 90 },
  (_, i) => `第${i + 1}条：员工提交报销单时须附上发票原件，审批人核对金额后签字。`,
).join('\n\n');
const NOTE = `# 报销流程\n\n## 提交\n\n${LONG_SECTION}\n\n## 审批\n\n经理审批后由财务打款，赵敏负责复核。\n`;

let scratch: string;
let cairn: CairnInternals;
let connectionId: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'cairn-docs-'));
  const folder = join(scratch, 'notes');
  mkdirSync(join(folder, 'finance'), { recursive: true });
  // CRLF on disk: the index holds the normalised text, and the offsets point into that.
  writeFileSync(join(folder, 'finance', 'expense.md'), NOTE.replace(/\n/g, '\r\n'));
  cairn = await createCairn({ scheduler: false, env: {}, logger: silentLogger() });
  connectionId = unwrap(
    await cairn.api.connections.add({
      platform: 'folder',
      name: 'notes',
      mode: 'rag',
      config: { path: folder },
      secrets: {},
    }),
  ).id;
  await syncToEnd(cairn, connectionId);
});

afterAll(async () => {
  await cairn.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

describe('documents.get', () => {
  it("returns a search hit's document: its Markdown, metadata and every chunk's offsets into that Markdown", async () => {
    const hit = unwrap(await cairn.api.search.query({ query: '赵敏 复核' })).documents[0]!.best;
    const document = unwrap(await cairn.api.documents.get({ documentId: hit.documentId! }));
    const stored = await cairn.db.query<{ id: number; content: string }>(
      'SELECT id, content FROM chunks WHERE document_id = $1 ORDER BY ord',
      [hit.documentId],
    );
    expect({
      ...document,
      markdown: document.markdown === NOTE.trimEnd(),
      indexedAt: typeof document.indexedAt,
      updatedAt: typeof document.updatedAt,
      chunks: document.chunks.map((chunk) => [
        chunk.ord,
        chunk.headingPath,
        document.markdown.slice(chunk.charStart, chunk.charEnd),
      ]),
    }).toEqual({
      id: hit.documentId,
      connectionId,
      externalId: 'finance/expense.md',
      title: hit.title,
      platform: 'folder',
      knowledgeBase: hit.knowledgeBase,
      // A hit links to its section (file.md#anchor); the document is the file.
      url: hit.url?.replace(/#[^/]*$/, ''),
      markdown: true,
      metadata: {},
      indexedAt: 'string',
      updatedAt: 'string',
      chunks: stored.rows.map((row, ord) => [ord, expect.any(String), row.content]),
    });
    expect(document.chunks.length).toBeGreaterThan(1);
    expect(document.chunks.map((chunk) => chunk.id)).toEqual(stored.rows.map((row) => Number(row.id)));
    // The hit's passage is one of the document's chunks, at the same offsets.
    expect(document.chunks).toContainEqual(
      expect.objectContaining({ charStart: hit.charStart, charEnd: hit.charEnd }),
    );
  });

  it('says NOT_FOUND for a document that is not indexed, and once its connection is removed', async () => {
    const missing = await cairn.api.documents.get({ documentId: 987_654 });
    expect(missing.ok ? 'ok' : missing.error.code).toBe('NOT_FOUND');
    const hit = unwrap(await cairn.api.search.query({ query: '报销' })).documents[0]!.best;
    unwrap(await cairn.api.connections.remove({ id: connectionId }));
    const removed = await cairn.api.documents.get({ documentId: hit.documentId! });
    expect(removed.ok ? 'ok' : removed.error.code).toBe('NOT_FOUND');
  });
});
