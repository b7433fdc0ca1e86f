/**
 * The Yuque answers Cairn reads, per endpoint, as the official OpenAPI 2.0.1 spec describes them
 * (../shared/yuque-openapi.json, the same file as yuque/yuque-mcp-server scripts/yuque-openapi.json;
 * docs/connectors.md "Yuque"). The spec marks no field required, so every field is optional here
 * and the connector decides what it cannot do without; a present field of the wrong type is an
 * UNEXPECTED_RESPONSE naming it. Unknown fields are dropped.
 *
 * Where the spec and practice disagree, both readings are accepted: `/users/{id}/groups` declares
 * `data: V2Group` (one object) while documenting a fixed page size of 100 (a list) and the
 * official MCP server reads a list; both come out as a list.
 */
import { z } from 'zod';

/** The spec declares types but no nullability; a null is read as "absent" rather than refused. */
const text = z.string().nullish();
const int = z.number().int().nullish();

export const YuqueUser = z.object({ id: int, type: text, login: text, name: text });
export type YuqueUser = z.infer<typeof YuqueUser>;

export const YuqueBook = z.object({
  id: int,
  type: text,
  slug: text,
  name: text,
  namespace: text,
  user: YuqueUser.nullish(),
});
export type YuqueBook = z.infer<typeof YuqueBook>;

export const YuqueDoc = z.object({
  id: int,
  type: text,
  slug: text,
  title: text,
  book_id: int,
  updated_at: text,
  content_updated_at: text,
  book: YuqueBook.nullish(),
});
export type YuqueDoc = z.infer<typeof YuqueDoc>;

export const YuqueDocDetail = YuqueDoc.extend({
  format: text,
  body: text,
  body_html: text,
  body_lake: text,
  body_sheet: text,
  body_table: text,
});
export type YuqueDocDetail = z.infer<typeof YuqueDocDetail>;

export const YuqueTocItem = z.object({
  uuid: text,
  type: text,
  title: text,
  doc_id: int,
  id: int,
  level: int,
  parent_uuid: text,
});
export type YuqueTocItem = z.infer<typeof YuqueTocItem>;

export const YuqueSearchResult = z.object({
  id: int,
  type: text,
  title: text,
  summary: text,
  url: text,
  info: text,
  // oneOf(V2Doc, V2Book): only the shared fields are read.
  target: z.object({ id: int, name: text, title: text, book: YuqueBook.nullish() }).nullish(),
});
export type YuqueSearchResult = z.infer<typeof YuqueSearchResult>;

/** A list answer, or null/absent as an empty list. */
function list<T extends z.ZodType>(item: T) {
  return z
    .array(item)
    .nullish()
    .transform((items) => items ?? []);
}

/** Either a list or one object (see the file comment), always a list. */
function listOrOne<T extends z.ZodType>(item: T) {
  return z
    .union([z.array(item), item])
    .nullish()
    .transform((value) =>
      value === null || value === undefined ? [] : Array.isArray(value) ? value : [value],
    );
}

const meta = z.object({ total: int, pageNo: int, pageSize: int }).nullish();

export const UserAnswer = z.object({ data: YuqueUser.nullish() });
export const GroupsAnswer = z.object({ data: listOrOne(YuqueUser) });
export const ReposAnswer = z.object({ data: list(YuqueBook) });
export const DocsAnswer = z.object({ data: list(YuqueDoc), meta });
export const DocDetailAnswer = z.object({ data: YuqueDocDetail.nullish() });
export const TocAnswer = z.object({ data: list(YuqueTocItem) });
export const SearchAnswer = z.object({ data: listOrOne(YuqueSearchResult), meta });
