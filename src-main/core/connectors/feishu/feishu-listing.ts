/**
 * Walks Feishu/Lark wiki spaces (depth-first through has_child / parent_node_token) and drive
 * folders (next_page_token), following connectors.md §1.4-1.5: keep docx only, follow shortcuts to
 * their origin once, and keep paging through empty pages that still say has_more:true.
 */
import { throwIfAborted } from '../../errors';
import type { FeishuDriveFile, FeishuPage, FeishuSpace, FeishuWikiNode } from './feishu-api';

/** GET returning the envelope's `data`. */
export type FeishuGet = <T>(
  path: string,
  query: Record<string, string | number | undefined>,
  signal: AbortSignal | undefined,
) => Promise<T>;

export interface ListedDocx {
  objToken: string;
  title: string;
  knowledgeBase: string;
  url: string | null;
  /** Unix seconds string of the last edit, where known. */
  editTime: string | undefined;
}

/** A page loop that tolerates empty pages with has_more:true but never spins on a missing token. */
async function* pages<T>(
  fetchPage: (pageToken: string | undefined) => Promise<FeishuPage<T> & { next_page_token?: string }>,
  signal: AbortSignal | undefined,
): AsyncGenerator<T> {
  let pageToken: string | undefined;
  for (;;) {
    throwIfAborted(signal);
    const page = await fetchPage(pageToken);
    yield* page.items ?? [];
    const next = page.page_token || page.next_page_token;
    if (!page.has_more || !next || next === pageToken) return;
    pageToken = next;
  }
}

export async function listSpaces(get: FeishuGet, signal: AbortSignal | undefined): Promise<FeishuSpace[]> {
  const spaces: FeishuSpace[] = [];
  for await (const space of pages<FeishuSpace>(
    (token) => get('/open-apis/wiki/v2/spaces', { page_size: 50, page_token: token }, signal),
    signal,
  ))
    spaces.push(space);
  return spaces;
}

/**
 * Every docx node of one space. Shortcut nodes are not followed here but collected, so the caller
 * can keep only those whose origin it never saw (an origin in a space the app cannot list).
 */
export async function* walkSpace(
  get: FeishuGet,
  space: FeishuSpace,
  shortcuts: FeishuWikiNode[],
  signal: AbortSignal | undefined,
): AsyncGenerator<FeishuWikiNode> {
  async function* children(parent: string | undefined): AsyncGenerator<FeishuWikiNode> {
    const path = `/open-apis/wiki/v2/spaces/${encodeURIComponent(space.space_id)}/nodes`;
    for await (const node of pages<FeishuWikiNode>(
      (token) => get(path, { page_size: 50, page_token: token, parent_node_token: parent }, signal),
      signal,
    )) {
      if (node.node_type === 'shortcut') {
        shortcuts.push(node);
        continue;
      }
      if (node.obj_type === 'docx') yield node;
      if (node.has_child) yield* children(node.node_token);
    }
  }
  yield* children(undefined);
}

export function docxFromNode(node: FeishuWikiNode, spaceName: string): ListedDocx {
  return {
    objToken: node.obj_token,
    title: node.title ?? node.obj_token,
    knowledgeBase: spaceName,
    url: node.url ?? null,
    editTime: node.obj_edit_time,
  };
}

/** Every docx under a drive folder, recursing into subfolders; shortcuts to docx resolve to their target. */
export async function* walkDriveFolder(
  get: FeishuGet,
  folderToken: string,
  folderName: string,
  signal: AbortSignal | undefined,
  visited = new Set<string>(),
): AsyncGenerator<ListedDocx> {
  if (visited.has(folderToken)) return;
  visited.add(folderToken);
  const subfolders: FeishuDriveFile[] = [];
  const files = pages<FeishuDriveFile>(async (token) => {
    const data = await get<{ files?: FeishuDriveFile[]; has_more?: boolean; next_page_token?: string }>(
      '/open-apis/drive/v1/files',
      { folder_token: folderToken, page_size: 50, page_token: token },
      signal,
    );
    return { items: data.files, has_more: data.has_more, next_page_token: data.next_page_token };
  }, signal);
  for await (const file of files) {
    if (file.type === 'folder') subfolders.push(file);
    else if (file.type === 'docx')
      yield {
        objToken: file.token,
        title: file.name,
        knowledgeBase: folderName,
        url: file.url ?? null,
        editTime: file.modified_time,
      };
    else if (
      file.type === 'shortcut' &&
      file.shortcut_info?.target_type === 'docx' &&
      file.shortcut_info.target_token
    ) {
      yield {
        objToken: file.shortcut_info.target_token,
        title: file.name,
        knowledgeBase: folderName,
        url: file.url ?? null,
        editTime: file.modified_time,
      };
    }
  }
  for (const folder of subfolders)
    yield* walkDriveFolder(get, folder.token, `${folderName} / ${folder.name}`, signal, visited);
}
