/**
 * The filters a person or an AI tool types by name (SearchFilters.connectionNames,
 * knowledgeBaseNames, platforms), resolved once, in core, against what Cairn has: the CLI, MCP and
 * the app send names and make one call per search. A name that matches nothing is NOT_FOUND with
 * the names there are, instead of a search that silently finds nothing.
 */
import type { Platform } from '@shared/models';
import { CairnError } from '../errors';
import { matchConnections, matchKnowledgeBases } from './facet-match';
import type { CheckedFilters } from './search-filters';

export interface KnownConnection {
  id: string;
  name: string;
  platform: Platform;
}

/**
 * `filters` with connection names turned into ids and knowledge base names into exact names
 * (joined with those given exactly); `knowledgeBases` is read only when names ask for it.
 */
export async function resolveNamedFilters(
  filters: CheckedFilters,
  connections: readonly KnownConnection[],
  knowledgeBases: () => Promise<readonly string[]>,
): Promise<CheckedFilters> {
  const missing = filters.platforms?.find((p) => !connections.some((c) => c.platform === p));
  if (missing !== undefined) {
    const listed = connections.slice(0, 20).map((c) => `${c.name} (${c.platform})`);
    throw new CairnError(
      'NOT_FOUND',
      `No connection of platform "${missing}". ${listed.length > 0 ? `Connections: ${listed.join(', ')}${connections.length > 20 ? ', …' : ''}.` : 'There are no connections yet.'}`,
    );
  }
  if (!filters.connectionNames && !filters.knowledgeBaseNames) return filters;
  let { connectionIds, knowledgeBases: exactBases } = filters;
  if (filters.connectionNames) {
    const found = matchConnections(connections, filters.connectionNames);
    if (!found.ok) throw new CairnError('NOT_FOUND', found.message);
    connectionIds = union(connectionIds, found.matched);
  }
  if (filters.knowledgeBaseNames) {
    const found = matchKnowledgeBases(await knowledgeBases(), filters.knowledgeBaseNames);
    if (!found.ok) throw new CairnError('NOT_FOUND', found.message);
    exactBases = union(exactBases, found.matched);
  }
  return {
    ...filters,
    connectionIds,
    connectionNames: null,
    knowledgeBases: exactBases,
    knowledgeBaseNames: null,
  };
}

function union(given: string[] | null, matched: readonly string[]): string[] {
  return [...new Set([...(given ?? []), ...matched])];
}
