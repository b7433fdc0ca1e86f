/**
 * The parts of DingTalk's response bodies Cairn reads, per the official SDK models
 * (aliyun/dingtalk-sdk wiki_2_0 and doc_2_0; connectors.md §3.2). Unknown fields are dropped.
 */
import { z } from 'zod';
import { CairnError } from '../../errors';

const text = z.string().nullish();

export const WorkspacePage = z.object({
  workspaces: z
    .array(z.object({ workspaceId: z.string(), name: z.string(), rootNodeId: z.string(), url: text }))
    .nullish(),
  nextToken: text,
});

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

/** Parses a response body, or says plainly that DingTalk answered in a shape Cairn does not know. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new CairnError(
    'SOURCE_ERROR',
    `DingTalk returned an unexpected ${what} response (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'unknown shape'}).`,
  );
}
