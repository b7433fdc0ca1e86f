/**
 * The parts of DingTalk's response bodies Cairn reads, per endpoint, as the official SDK models
 * (aliyun/dingtalk-sdk wiki_2_0, doc_1_0, doc_2_0) and the developer help pages describe them
 * (docs/connectors.md "DingTalk"). Unknown fields are dropped; an answer that does not fit is
 * UNEXPECTED_RESPONSE naming the endpoint and field.
 */
import { z } from 'zod';
import { parseResponse } from '../http/response-shape';

const text = z.string().nullish();

const Workspace = z.object({
  workspaceId: z.string(),
  name: z.string(),
  rootNodeId: z.string(),
  /** TEAM (a knowledge base) or PERSONAL (My Docs). */
  type: text,
  url: text,
});

/** GET /v2.0/wiki/workspaces [SDK ListWorkspacesResponseBody]. */
export const WorkspacePage = z.object({ workspaces: z.array(Workspace).nullish(), nextToken: text });

/** GET /v2.0/wiki/mineWorkspaces: the user's own "My Docs", one object ("Get My Docs" help page). */
export const MineWorkspace = z.object({ workspace: Workspace.nullish() });

export const NodePage = z.object({
  nodes: z
    .array(
      z.object({
        nodeId: z.string(),
        name: z.string(),
        type: z.string(),
        category: text,
        extension: text,
        hasChildren: z.boolean().nullish(),
        url: text,
        modifiedTime: text,
      }),
    )
    .nullish(),
  nextToken: text,
});

export type WikiNode = NonNullable<z.infer<typeof NodePage>['nodes']>[number];

export const ContentTask = z.object({ taskId: z.union([z.string().min(1), z.number()]) });

/**
 * GET /v1.0/doc/suites/documents/{docKey}/blocks ("Query block elements"): the document's
 * first-level blocks, `{result: {data: [...]}, success}` [SDK DocBlocksQueryResponseBody; the SDK
 * types the blocks `any`]. Each block is `{blockType, [blockType]: {...}}` per the block data
 * structure pages; what sits inside varies by type, so blocks are read leniently (dingtalk-blocks.ts).
 */
export const BlocksAnswer = z.object({
  success: z.boolean().nullish(),
  result: z.object({ data: z.array(z.record(z.string(), z.unknown())).nullish() }).nullish(),
});

/**
 * POST {oapi}/topapi/v2/user/get ("Query user details"): `{errcode, errmsg, result: {userid, unionid, name}}`.
 * errcode 0 is success.
 */
export const UserDetails = z.object({
  errcode: z.number(),
  errmsg: text,
  result: z.object({ unionid: text, name: text }).nullish(),
});

export const SearchPage = z.object({
  dentryResult: z
    .object({
      items: z
        .array(
          z.object({
            dentryUuid: z.string(),
            name: text,
            originName: text,
            content: text,
            url: text,
            spaceId: text,
          }),
        )
        .nullish(),
      hasMore: z.boolean().nullish(),
      nextToken: text,
    })
    .nullish(),
});

/** Parses a response body, or throws UNEXPECTED_RESPONSE naming the endpoint and the field. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown, endpoint: string): T {
  return parseResponse(schema, body, { platform: 'DingTalk', endpoint });
}
