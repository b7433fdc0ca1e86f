/**
 * Names typed by a person or an AI tool (CLI `--kb`, MCP `knowledge_base`) matched to the
 * knowledge bases the index holds: exact first, then ignoring case, then containing the text.
 * The filter itself matches names exactly (search-filters.ts), so the loose matching lives here,
 * once, for both callers.
 */
import type { SearchFacets } from '@shared/models';

export type KnowledgeBaseMatch = { ok: true; names: string[] } | { ok: false; message: string };

export function matchKnowledgeBases(facets: SearchFacets, wanted: readonly string[]): KnowledgeBaseMatch {
  const names = facets.knowledgeBases.map((kb) => kb.name);
  const chosen = new Set<string>();
  for (const raw of wanted) {
    const text = raw.trim();
    const lower = text.toLowerCase();
    const exact = names.filter((name) => name === text);
    const caseless = exact.length > 0 ? exact : names.filter((name) => name.toLowerCase() === lower);
    const found =
      caseless.length > 0 ? caseless : names.filter((name) => lower && name.toLowerCase().includes(lower));
    if (found.length === 0) {
      const known = names.slice(0, 20).map((name) => `"${name}"`);
      return {
        ok: false,
        message: `No knowledge base named "${text.slice(0, 200)}". Knowledge bases: ${known.join(', ') || 'none indexed yet'}${names.length > 20 ? ', …' : ''}.`,
      };
    }
    for (const name of found) chosen.add(name);
  }
  return { ok: true, names: [...chosen] };
}
