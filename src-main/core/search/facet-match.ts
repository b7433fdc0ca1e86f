/**
 * Names typed by a person or an AI tool (CLI `--connection`/`--kb`, MCP `connection`/
 * `knowledge_base`) matched to the connections and knowledge bases Cairn has. The filters
 * themselves match exactly (search-filters.ts); the loose matching lives here, once, and search
 * applies it to SearchFilters.connectionNames and knowledgeBaseNames (named-filters.ts).
 */
/** What the typed names stand for (knowledge base names, connection ids), or why none does. */
export type NameMatch = { ok: true; matched: string[] } | { ok: false; message: string };

/**
 * Knowledge base names, most documents first (SearchFacets.knowledgeBases' order), matched to what
 * was typed: exact first, then ignoring case, then containing the text. Every name that matches
 * is taken (a filter matches any of them).
 */
export function matchKnowledgeBases(known: readonly string[], wanted: readonly string[]): NameMatch {
  const chosen = new Set<string>();
  for (const raw of wanted) {
    const text = raw.trim();
    const lower = text.toLowerCase();
    const exact = known.filter((name) => name === text);
    const caseless = exact.length > 0 ? exact : known.filter((name) => name.toLowerCase() === lower);
    const found =
      caseless.length > 0 ? caseless : known.filter((name) => lower && name.toLowerCase().includes(lower));
    if (found.length === 0) {
      const listed = known.slice(0, 20).map((name) => `"${name}"`);
      return {
        ok: false,
        message: `No knowledge base named "${text.slice(0, 200)}". Knowledge bases: ${listed.join(', ') || 'none indexed yet'}${known.length > 20 ? ', …' : ''}.`,
      };
    }
    for (const name of found) chosen.add(name);
  }
  return { ok: true, matched: [...chosen] };
}

/**
 * Connection ids for what was typed: an id, else a name exactly, else a name in any case (every
 * connection so named: a filter matches any of them). `known` in the order people see them.
 */
export function matchConnections(
  known: readonly { id: string; name: string }[],
  wanted: readonly string[],
): NameMatch {
  const chosen = new Set<string>();
  for (const raw of wanted) {
    const text = raw.trim();
    const lower = text.toLowerCase();
    const byId = known.filter((c) => c.id === text);
    const exact = byId.length > 0 ? byId : known.filter((c) => c.name === text);
    const found = exact.length > 0 ? exact : known.filter((c) => c.name.toLowerCase() === lower);
    if (found.length === 0) {
      const listed = known.slice(0, 20).map((c) => c.name);
      return {
        ok: false,
        message: `No connection named "${text.slice(0, 200)}". ${listed.length > 0 ? `Connections: ${listed.join(', ')}${known.length > 20 ? ', …' : ''}.` : 'There are no connections yet.'}`,
      };
    }
    for (const connection of found) chosen.add(connection.id);
  }
  return { ok: true, matched: [...chosen] };
}
