/**
 * A knowledge base's table of contents (GET /api/v2/repos/{book_id}/toc, V2TocItem in the official
 * spec) gives each document its place: the titles of the groups (TITLE) and parent documents above
 * it, which Cairn puts in front of every chunk's heading path. The tree is given by `parent_uuid`;
 * where no item carries one, by `level` in list order (the spec documents both). Documents are
 * matched by `doc_id` (the spec's current field) or the deprecated `id`.
 */
import type { YuqueTocItem } from './yuque-schemas';

/** Document id → titles above it, outermost first. Documents outside the TOC are absent. */
export function breadcrumbsFromToc(items: YuqueTocItem[]): Map<number, string[]> {
  const byUuid = new Map(items.filter((item) => item.uuid).map((item) => [item.uuid!, item]));
  const useParents = items.some((item) => item.parent_uuid);
  const out = new Map<number, string[]>();
  const stack: { level: number; title: string }[] = [];
  for (const item of items) {
    let trail: string[];
    if (useParents) {
      trail = [];
      const seen = new Set<string>();
      for (let parent = item.parent_uuid; parent && !seen.has(parent);) {
        seen.add(parent);
        const node = byUuid.get(parent);
        if (!node) break;
        if (node.title?.trim()) trail.unshift(node.title.trim());
        parent = node.parent_uuid;
      }
    } else {
      const level = item.level ?? 0;
      while (stack.length > 0 && stack.at(-1)!.level >= level) stack.pop();
      trail = stack.map((entry) => entry.title).filter(Boolean);
      stack.push({ level, title: item.title?.trim() ?? '' });
    }
    const docId = item.doc_id ?? item.id;
    if (item.type === 'DOC' && docId !== null && docId !== undefined && !out.has(docId))
      out.set(docId, trail);
  }
  return out;
}
