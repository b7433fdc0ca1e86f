/**
 * What each DingTalk step needs from the app's permissions (权限管理 in the developer console), as the
 * official pages state them (docs/connectors.md "DingTalk: permissions"), and how a refusal names the
 * missing one. DingTalk's own answer wins: a 403 `Forbidden.AccessDenied.AccessTokenPermissionDenied`
 * carries `accessdenieddetail.requiredScopes` with the missing permission codes [DOC
 * open-dingtalk/developerpedia docs/develop/best-practices/permission-deny.md]. When it does not, the
 * step's documented permission is named as the likely cause.
 */

export interface DingTalkStep {
  /** What Cairn was doing, for the sentence ("list knowledge bases"). */
  what: string;
  /** The permission the step's official page names; null where no page was found [U]. */
  permission: string | null;
}

export const DINGTALK_STEPS = {
  /** "Query user details" (topapi/v2/user/get): qyapi_get_member. */
  userLookup: { what: 'look up your unionId from your userId', permission: 'qyapi_get_member' },
  /** "Get the Knowledge Base list" and "Get My Docs": Wiki.Workspace.Read. */
  workspaces: { what: 'list knowledge bases', permission: 'Wiki.Workspace.Read' },
  myDocs: { what: 'list My Docs', permission: 'Wiki.Workspace.Read' },
  /** The wiki node pages ("Get node", "Get nodes in batch", "Get node by link"): Wiki.Node.Read. */
  nodes: { what: 'list the documents of a knowledge base', permission: 'Wiki.Node.Read' },
  /** "Query block elements": Storage.File.Read. */
  blocks: { what: 'read a document’s text (blocks)', permission: 'Storage.File.Read' },
  /** QueryDocContent (the Markdown export): no official page with its permission was found. */
  export: { what: 'export a document as Markdown', permission: null },
  /** /v2.0/doc/search: no official page with its permission was found. */
  search: { what: 'search', permission: null },
} as const satisfies Record<string, DingTalkStep>;

/** Every permission a connection needs, in the order its steps run (README, the Add form's note). */
export const DINGTALK_PERMISSIONS: readonly string[] = [
  ...new Set(
    Object.values(DINGTALK_STEPS)
      .map((step) => step.permission)
      .filter((permission): permission is NonNullable<typeof permission> => permission !== null),
  ),
];

/** The permission codes a 403 body names in `accessdenieddetail.requiredScopes` (empty when absent). */
export function requiredScopes(body: unknown): string[] {
  const detail = (body as { accessdenieddetail?: { requiredScopes?: unknown } } | undefined)
    ?.accessdenieddetail;
  const scopes = detail?.requiredScopes;
  return Array.isArray(scopes)
    ? scopes.filter((scope): scope is string => typeof scope === 'string' && scope.trim() !== '')
    : [];
}
