/**
 * The parts of IMA's `data` payloads Cairn reads (connectors.md §4.2, all [S]/[U]). Unknown fields
 * are dropped; cursors and flags are read leniently because clients disagree about their types.
 */
import { z } from 'zod';
import { CairnError } from '../../errors';

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

/** Parses a `data` payload, or says plainly that IMA answered in a shape Cairn does not know. */
export function parseData<T>(schema: z.ZodType<T>, data: unknown, action: string): T {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new CairnError(
    'SOURCE_ERROR',
    `IMA returned an unexpected ${action} response (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'unknown shape'}).`,
  );
}
