/**
 * Walks Feishu/Lark wiki spaces (depth-first through has_child / parent_node_token) and drive
 * folders (next_page_token). Every item comes out with its type; the connector reads docx, sheet and
 * bitable and counts the rest as skipped. Shortcuts are followed to their origin once; empty pages
 * that still say has_more:true are legal ("获取知识空间子节点列表": lists are permission-filtered).
 */
import type { z } from 'zod';
import { throwIfAborted } from '../../errors';
import {
  DrivePage,
  NodesPage,
  SpacesPage,
  type FeishuDriveFile,
  type FeishuWikiNode,
} from './feishu-schemas';

/** GET one documented endpoint and return its checked `data`. */
export type FeishuGet = <T>(
  endpoint: string,
  path: string,
  query: Record<string, string | number | undefined>,
  schema: z.ZodType<T>,
  signal: AbortSignal | undefined,
) => Promise<T>;

/** POST to one documented endpoint and return its checked `data`. */
export type FeishuPost = <T>(
  endpoint: string,
  path: string,
  query: Record<string, string | number | undefined>,
  body: unknown,
  schema: z.ZodType<T>,
  signal: AbortSignal | undefined,
) => Promise<T>;

export interface FeishuSpace {
  space_id: string;
  name?: string | null;
}

/** One listed item of any type. */
export interface ListedItem {
  token: string;
  /** The platform's obj_type / file type: docx, sheet, bitable, doc, mindnote, slides, file, … */
  kind: string;
  title: string;
  knowledgeBase: string;
  url: string | null;
  /** Unix seconds string of the last edit, where known. */
  editTime: string | undefined;
}

/** A page loop that tolerates empty pages with has_more:true but never spins on a missing token. */
async function* pages<T>(
  fetchPage: (
    pageToken: string | undefined,
  ) => Promise<{ items?: T[] | null; has_more?: boolean | null; page_token?: string | null }>,
  signal: AbortSignal | undefined,
): AsyncGenerator<T> {
  let pageToken: string | undefined;
  for (;;) {
    throwIfAborted(signal);
    const page = await fetchPage(pageToken);
    yield* page.items ?? [];
    const next = page.page_token ?? undefined;
    if (!page.has_more || !next || next === pageToken) return;
    pageToken = next;
  }
}

export async function listSpaces(get: FeishuGet, signal: AbortSignal | undefined): Promise<FeishuSpace[]> {
  const spaces: FeishuSpace[] = [];
  for await (const space of pages(
    (token) =>
      get(
        'GET /open-apis/wiki/v2/spaces',
        '/open-apis/wiki/v2/spaces',
        { page_size: 50, page_token: token },
        SpacesPage,
        signal,
      ),
    signal,
  ))
    spaces.push(space);
  return spaces;
}

/**
 * Every origin node of one space, any type. Shortcut nodes are not followed here but collected, so
 * the caller can keep only those whose origin it never saw (an origin in a space the app cannot list).
 */
export async function* walkSpace(
  get: FeishuGet,
  space: FeishuSpace,
  shortcuts: FeishuWikiNode[],
  signal: AbortSignal | undefined,
): AsyncGenerator<FeishuWikiNode> {
  async function* children(parent: string | undefined): AsyncGenerator<FeishuWikiNode> {
    const path = `/open-apis/wiki/v2/spaces/${encodeURIComponent(space.space_id)}/nodes`;
    for await (const node of pages(
      (token) =>
        get(
          'GET /open-apis/wiki/v2/spaces/:space_id/nodes',
          path,
          { page_size: 50, page_token: token, parent_node_token: parent },
          NodesPage,
          signal,
        ),
      signal,
    )) {
      if (node.node_type === 'shortcut') shortcuts.push(node);
      else yield node;
      if (node.has_child) yield* children(node.node_token);
    }
  }
  yield* children(undefined);
}

export function itemFromNode(node: FeishuWikiNode, spaceName: string): ListedItem {
  return {
    token: node.obj_token,
    kind: node.obj_type,
    title: node.title || node.obj_token,
    knowledgeBase: spaceName,
    url: node.url ?? null,
    editTime: node.obj_edit_time ?? undefined,
  };
}

function itemFromFile(file: FeishuDriveFile, folderName: string): ListedItem {
  const shortcut = file.type === 'shortcut' ? file.shortcut_info : undefined;
  return {
    token: shortcut?.target_token || file.token,
    kind: shortcut?.target_type || file.type,
    title: file.name || file.token,
    knowledgeBase: folderName,
    url: file.url ?? null,
    editTime: file.modified_time ?? undefined,
  };
}

/** Every file under a drive folder, recursing into subfolders; shortcuts resolve to their target. */
export async function* walkDriveFolder(
  get: FeishuGet,
  folderToken: string,
  folderName: string,
  signal: AbortSignal | undefined,
  visited = new Set<string>(),
): AsyncGenerator<ListedItem> {
  if (visited.has(folderToken)) return;
  visited.add(folderToken);
  const subfolders: FeishuDriveFile[] = [];
  const files = pages(async (token) => {
    const data = await get(
      'GET /open-apis/drive/v1/files',
      '/open-apis/drive/v1/files',
      { folder_token: folderToken, page_size: 200, page_token: token },
      DrivePage,
      signal,
    );
    return {
      items: data.files,
      has_more: data.has_more,
      page_token: data.next_page_token ?? data.page_token,
    };
  }, signal);
  for await (const file of files) {
    if (file.type === 'folder') subfolders.push(file);
    else yield itemFromFile(file, folderName);
  }
  for (const folder of subfolders)
    yield* walkDriveFolder(
      get,
      folder.token,
      `${folderName} / ${folder.name ?? folder.token}`,
      signal,
      visited,
    );
}
