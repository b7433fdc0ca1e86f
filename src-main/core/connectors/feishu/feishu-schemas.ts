/**
 * The Feishu/Lark answers Cairn reads, per endpoint, as the open platform's pages document them
 * (docs/connectors.md "Feishu / Lark" names each page). Open-apis answers are the
 * `{code, msg, data}` envelope: these schemas describe `data`. Unknown fields are dropped; a field of
 * the wrong type, or a missing field Cairn cannot do without, is UNEXPECTED_RESPONSE naming it.
 */
import { z } from 'zod';

const text = z.string().nullish();
const flag = z.boolean().nullish();
/** page_token is returned only while has_more is true (wiki pages); drive uses next_page_token. */
const paging = { has_more: flag, page_token: text };

/** GET /open-apis/wiki/v2/spaces ("获取知识空间列表"). */
export const SpacesPage = z.object({
  items: z.array(z.object({ space_id: z.string(), name: text, space_type: text })).nullish(),
  ...paging,
});

/** A wiki node ("获取知识空间子节点列表"); `url` is not in the page's field list but in the official SDK's type. */
export const WikiNode = z.object({
  space_id: text,
  node_token: z.string(),
  obj_token: z.string(),
  obj_type: z.string(),
  node_type: text,
  origin_node_token: text,
  has_child: flag,
  title: text,
  obj_edit_time: text,
  url: text,
});
export type FeishuWikiNode = z.infer<typeof WikiNode>;

/** GET /open-apis/wiki/v2/spaces/:space_id/nodes. */
export const NodesPage = z.object({ items: z.array(WikiNode).nullish(), ...paging });

/** GET /open-apis/wiki/v2/spaces/get_node ("获取知识空间节点信息"). */
export const GetNode = z.object({ node: WikiNode });

/** GET /open-apis/drive/v1/files ("获取文件夹中的文件清单"): next_page_token, not page_token. */
export const DriveFile = z.object({
  token: z.string(),
  name: text,
  type: z.string(),
  url: text,
  modified_time: text,
  shortcut_info: z.object({ target_type: text, target_token: text }).nullish(),
});
export type FeishuDriveFile = z.infer<typeof DriveFile>;
export const DrivePage = z.object({
  files: z.array(DriveFile).nullish(),
  has_more: flag,
  next_page_token: text,
  page_token: text,
});

/** GET /open-apis/docs/v1/content and GET /open-apis/docx/v1/documents/:id/raw_content. */
export const Content = z.object({ content: z.string() });

/** GET /open-apis/docx/v1/documents/:id/blocks ("获取文档所有块"); blocks are typed in blocks-to-markdown.ts. */
export const BlocksPage = z.object({
  items: z.array(z.object({ block_id: z.string(), block_type: z.number() }).passthrough()).nullish(),
  ...paging,
});

/** POST /open-apis/search/v2/doc_wiki/search ("搜索文档"). */
export const SearchPage = z.object({
  res_units: z
    .array(
      z.object({
        title_highlighted: text,
        summary_highlighted: text,
        entity_type: text,
        result_meta: z.object({ token: text, url: text }).nullish(),
      }),
    )
    .nullish(),
  ...paging,
});

/** GET /open-apis/sheets/v3/spreadsheets/:token/sheets/query ("获取工作表"). */
export const SheetsQuery = z.object({
  sheets: z
    .array(
      z.object({
        sheet_id: z.string(),
        title: text,
        hidden: flag,
        resource_type: text,
      }),
    )
    .nullish(),
});

/** GET /open-apis/sheets/v2/spreadsheets/:token/values/:range ("读取单个范围"). */
export const SheetValues = z.object({
  valueRange: z.object({ values: z.array(z.array(z.unknown()).nullable()).nullish() }).nullish(),
});

/** GET /open-apis/bitable/v1/apps/:app_token/tables ("列出数据表"). */
export const BitableTables = z.object({
  items: z.array(z.object({ table_id: z.string(), name: text })).nullish(),
  ...paging,
});

/** POST /open-apis/bitable/v1/apps/:app_token/tables/:table_id/records/search ("查询记录"). */
export const BitableRecords = z.object({
  items: z
    .array(z.object({ record_id: text, fields: z.record(z.string(), z.unknown()).nullish() }))
    .nullish(),
  ...paging,
});

/** POST /open-apis/auth/v3/tenant_access_token/internal: a flat body, no `data`. */
export const TenantToken = z.object({ tenant_access_token: z.string().min(1), expire: z.number() });

/** The OAuth token endpoints (v3 and v2): a flat body, no `data`. */
export const UserTokenAnswer = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().nullish(),
  refresh_token: text,
  refresh_token_expires_in: z.number().nullish(),
  scope: text,
});
