/**
 * Direct search through search v2 doc_wiki ("搜索文档", user token only): `query` 0-50 characters,
 * `page_size` up to 20, `<h>` highlights. Wiki hits carry the node token; get_node gives the object
 * token (the listing's externalId) and the space.
 */
import type { z } from 'zod';
import { isAbortError } from '../../errors';
import type { DirectHit } from '../connector';
import { stripHighlight } from './feishu-api';
import type { FeishuGet, FeishuPost } from './feishu-listing';
import { GetNode, SearchPage } from './feishu-schemas';

const MAX_QUERY_CHARS = 50;
const SEARCH_PAGE_SIZE = 20;

type Unit = NonNullable<z.infer<typeof SearchPage>['res_units']>[number];

export interface FeishuSearchAccess {
  post: FeishuPost;
  getNode: FeishuGet;
  spaceNames(signal: AbortSignal | undefined): Promise<Map<string, string>>;
}

export async function searchFeishu(
  access: FeishuSearchAccess,
  query: string,
  options: { limit: number; signal?: AbortSignal },
): Promise<DirectHit[]> {
  const q = [...query.trim()].slice(0, MAX_QUERY_CHARS).join('');
  if (!q || options.limit <= 0) return [];
  const units: Unit[] = [];
  let pageToken: string | undefined;
  while (units.length < options.limit) {
    const body = {
      query: q,
      page_size: Math.min(SEARCH_PAGE_SIZE, options.limit - units.length),
      page_token: pageToken,
      doc_filter: {},
      wiki_filter: {},
    };
    const page = await access.post(
      'POST /open-apis/search/v2/doc_wiki/search',
      '/open-apis/search/v2/doc_wiki/search',
      {},
      body,
      SearchPage,
      options.signal,
    );
    units.push(...(page.res_units ?? []));
    if (!page.has_more || !page.page_token || page.page_token === pageToken) break;
    pageToken = page.page_token;
  }
  return Promise.all(units.slice(0, options.limit).map((unit) => toHit(access, unit, options.signal)));
}

async function toHit(
  access: FeishuSearchAccess,
  unit: Unit,
  signal: AbortSignal | undefined,
): Promise<DirectHit> {
  const token = unit.result_meta?.token ?? '';
  const hit: DirectHit = {
    externalId: token,
    title: stripHighlight(unit.title_highlighted ?? undefined),
    snippet: stripHighlight(unit.summary_highlighted ?? undefined),
    url: unit.result_meta?.url ?? null,
    knowledgeBase: unit.entity_type === 'WIKI' ? 'Wiki' : 'Drive',
  };
  if (unit.entity_type !== 'WIKI' || !token) return hit;
  try {
    const { node } = await access.getNode(
      'GET /open-apis/wiki/v2/spaces/get_node',
      '/open-apis/wiki/v2/spaces/get_node',
      { token },
      GetNode,
      signal,
    );
    const names = await access.spaceNames(signal);
    return {
      ...hit,
      externalId: node.obj_token,
      knowledgeBase: (node.space_id && names.get(node.space_id)) || hit.knowledgeBase,
    };
  } catch (error) {
    if (isAbortError(error)) throw error;
    return hit;
  }
}
