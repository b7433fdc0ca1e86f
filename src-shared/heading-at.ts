/**
 * The heading path of one place inside a chunk: the chunk's own path (what all of it shares) plus
 * the headings inside the chunk that open before that place. A merged chunk is labelled by the
 * headings its sections share ("变量参考"), so a passage under its `### tidb_mem_quota_query` would
 * otherwise be labelled, and linked, by the outer heading (#27 item 8). Headings inside fenced
 * code ("# install it" in a shell block) are not headings.
 */
export function headingPathAt(markdown: string, offset: number, chunkPath: string): string {
  const path = chunkPath
    .split(' > ')
    .map((part) => part.trim())
    .filter(Boolean);
  const open: { level: number; title: string }[] = [];
  let fence: string | null = null;
  let at = 0;
  for (const line of markdown.split('\n')) {
    if (at > offset) break;
    const trimmed = line.trim();
    const marker = /^(`{3,}|~{3,})/.exec(trimmed)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = null;
    } else if (marker) {
      fence = marker;
    } else {
      const heading = /^(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
      if (heading && heading[2]) {
        const level = heading[1]!.length;
        while (open.length > 0 && open[open.length - 1]!.level >= level) open.pop();
        open.push({ level, title: heading[2] });
      }
    }
    at += line.length + 1;
  }
  if (open.length === 0) return path.join(' > ');
  // The chunk's path may already name the first open heading (a chunk that starts at its own heading).
  const titles = open.map((heading) => heading.title);
  const joinAt = path.lastIndexOf(titles[0]!);
  return [...(joinAt === -1 ? path : path.slice(0, joinAt)), ...titles].join(' > ');
}
