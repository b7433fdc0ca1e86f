/**
 * The IMA fake's contract: every action the connector calls answers in the shape the connector's
 * own schemas read (ima-schemas.ts, from the ima skill package), errors use the skill's codes and
 * the statuses clients report, and folders are items with media_type 99.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  KnowledgeBasePage,
  KnowledgeListPage,
  MediaInfo,
  NoteContent,
  NoteExport,
  parseData,
  SearchKnowledgePage,
} from '../../core/connectors/ima/ima-schemas';
import { startImaFake, type ImaFake } from './ima-fake';

let fake: ImaFake;
beforeAll(async () => {
  fake = await startImaFake({ documents: 12, spaces: 2, maxPageSize: 20 });
});
afterAll(() => fake.close());

async function call(
  action: string,
  body: Record<string, unknown>,
): Promise<{ status: number; code: number; msg: string; data: unknown }> {
  const res = await fetch(`${fake.baseUrl}/openapi/${action}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'ima-openapi-clientid': fake.credentials.clientId!,
      'ima-openapi-apikey': fake.credentials.apiKey!,
    },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { code: number; msg: string; data: unknown };
  return { status: res.status, ...json };
}

describe('IMA fake contract', () => {
  it("answers every action the connector calls in the shape the connector's schemas read", async () => {
    const kbs = parseData(
      KnowledgeBasePage,
      (await call('wiki/v1/search_knowledge_base', { query: '', cursor: '', limit: 20 })).data,
      'wiki/v1/search_knowledge_base',
    );
    const kb = kbs.info_list![0]!;
    const root = parseData(
      KnowledgeListPage,
      (await call('wiki/v1/get_knowledge_list', { knowledge_base_id: kb.kb_id, cursor: '', limit: 50 })).data,
      'wiki/v1/get_knowledge_list',
    );
    const folder = root.knowledge_list!.find((item) => item.media_type === 99)!;
    expect(folder.media_id.startsWith('folder_')).toBe(true);
    const note = fake.control.items().find((item) => item.kind === 'note')!;
    const info = parseData(
      MediaInfo,
      (await call('wiki/v1/get_media_info', { media_id: note.externalId })).data,
      'wiki/v1/get_media_info',
    );
    expect(info.media_type).toBe(11);
    const noteId = info.notebook_ext_info!.notebook_id;
    const exported = parseData(
      NoteExport,
      (await call('note/v1/export_note', { note_id: noteId, target_content_format: 1 })).data,
      'note/v1/export_note',
    );
    // The signed link needs no credential header.
    expect(await (await fetch(exported.content_url)).text()).toBe(note.markdown);
    parseData(
      NoteContent,
      (await call('note/v1/get_doc_content', { note_id: noteId, target_content_format: 0 })).data,
      'note/v1/get_doc_content',
    );
    parseData(
      SearchKnowledgePage,
      (await call('wiki/v1/search_knowledge', { query: '要点', knowledge_base_id: kb.kb_id, cursor: '' }))
        .data,
      'wiki/v1/search_knowledge',
    );
  });

  it('answers errors with the codes and statuses the sources give', async () => {
    const note = fake.control.items().find((item) => item.kind === 'note')!;
    fake.control.notAuthor.add(note.key);
    const info = (await call('wiki/v1/get_media_info', { media_id: note.externalId })).data as {
      notebook_ext_info: { notebook_id: string };
    };
    const refused = await call('note/v1/export_note', {
      note_id: info.notebook_ext_info.notebook_id,
      target_content_format: 1,
    });
    fake.control.inject({ kind: 'quota', match: 'search_knowledge_base' });
    const quota = await call('wiki/v1/search_knowledge_base', { query: '', cursor: '', limit: 20 });
    fake.control.inject({ kind: 'rate-limit', match: 'search_knowledge_base' });
    const rate = await call('wiki/v1/search_knowledge_base', { query: '', cursor: '', limit: 20 });
    const tooMany = await call('wiki/v1/search_knowledge_base', { query: '', cursor: '', limit: 21 });
    expect([refused, quota, rate, tooMany].map(({ status, code, msg }) => ({ status, code, msg }))).toEqual([
      { status: 200, code: 210005, msg: expect.stringContaining('非笔记作者') },
      { status: 403, code: 200005, msg: '请求超量，请明日再试' },
      { status: 403, code: 200001, msg: '请求频率超限，请稍后重试' },
      { status: 200, code: 51, msg: expect.any(String) },
    ]);
  });
});
