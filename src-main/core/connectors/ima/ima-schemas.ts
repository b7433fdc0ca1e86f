/**
 * The parts of IMA's `data` payloads Cairn reads, per action, as the ima skill package describes
 * them (docs/connectors.md "IMA"). Unknown fields are dropped; cursors and flags are read leniently
 * because clients disagree about their types. A payload that does not fit is UNEXPECTED_RESPONSE
 * naming the action and field.
 */
import { z } from 'zod';
import { parseResponse } from '../http/response-shape';

const text = z.string().nullish();
const cursor = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((value) => (value === null || value === undefined ? '' : String(value)));
const flag = z
  .union([z.boolean(), z.number()])
  .nullish()
  .transform((value) => value === true || value === 1);

export const KnowledgeBasePage = z.object({
  info_list: z.array(z.object({ kb_id: z.string(), kb_name: z.string() })).nullish(),
  is_end: flag,
  next_cursor: cursor,
});

export const KnowledgeListPage = z.object({
  knowledge_list: z
    .array(z.object({ media_id: z.string(), title: z.string().nullish(), media_type: z.number().nullish() }))
    .nullish(),
  is_end: flag,
  next_cursor: cursor,
});

export const SearchKnowledgePage = z.object({
  info_list: z.array(z.object({ media_id: z.string(), title: text, highlight_content: text })).nullish(),
  is_end: flag,
  next_cursor: cursor,
});

export const MediaInfo = z.object({
  media_type: z.number().nullish(),
  url_info: z.object({ url: z.string(), headers: z.record(z.string(), z.string()).nullish() }).nullish(),
  notebook_ext_info: z.object({ notebook_id: z.union([z.string(), z.number()]).transform(String) }).nullish(),
});

export const NoteContent = z.object({ content: z.string().nullish() });

/** note/v1/export_note: a signed link (about 3 hours) to the exported file, not the content itself. */
export const NoteExport = z.object({ content_url: z.string().min(1) });

/** Parses a `data` payload, or throws UNEXPECTED_RESPONSE naming the action and the field. */
export function parseData<T>(schema: z.ZodType<T>, data: unknown, action: string): T {
  return parseResponse(schema, data, { platform: 'IMA', endpoint: `POST /openapi/${action} (data)` });
}
