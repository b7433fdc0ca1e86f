import type { MarkdownBlock } from './markdown-blocks';

/** The text from one heading to the next heading (of any level), or before the first heading. */
export interface Section {
  /** Heading titles, outermost first, ending with this section's own heading; [] before the first heading. */
  headingPath: string[];
  /** Offset of the heading (or of the first block before any heading). */
  start: number;
  /** End of the section's last block. */
  end: number;
  /** False for a heading directly followed by another heading: nothing of its own to cite. */
  hasBody: boolean;
}

/** Groups blocks under their headings; a heading closes every open heading of its level or deeper. */
export function buildSections(blocks: readonly MarkdownBlock[]): Section[] {
  const sections: Section[] = [];
  const open: { level: number; title: string }[] = [];
  let current: Section | undefined;
  for (const block of blocks) {
    if (block.kind === 'heading') {
      const level = block.headingLevel!;
      while (open.length > 0 && open[open.length - 1]!.level >= level) open.pop();
      open.push({ level, title: block.headingTitle! });
      if (current) sections.push(current);
      current = {
        headingPath: open.map((heading) => heading.title),
        start: block.start,
        end: block.end,
        hasBody: false,
      };
      continue;
    }
    // Front matter is metadata, not citable text: a note's "title: x" header should not keep the
    // chunk below it from carrying the note's heading path.
    const isBody = block.kind !== 'front-matter';
    if (!current) current = { headingPath: [], start: block.start, end: block.end, hasBody: isBody };
    current.end = block.end;
    current.hasBody ||= isBody;
  }
  if (current) sections.push(current);
  return sections;
}

/**
 * A heading with no body of its own ("## Install" right before "### Linux") joins the section
 * after it, so it never becomes a chunk holding nothing but a heading. The joined section keeps
 * the later (deeper) heading path, which is where its body text actually sits.
 */
export function attachBodilessHeadings(sections: readonly Section[]): Section[] {
  const attached: Section[] = [];
  let pendingStart: number | undefined;
  sections.forEach((section, index) => {
    if (!section.hasBody && index < sections.length - 1) {
      pendingStart ??= section.start;
      return;
    }
    attached.push({ ...section, start: pendingStart ?? section.start });
    pendingStart = undefined;
  });
  return attached;
}

/** Titles shared by every path from the outermost level down; empty titles are dropped when joining. */
export function commonHeadingPath(paths: readonly string[][]): string[] {
  if (paths.length === 0) return [];
  const [first, ...rest] = paths;
  let length = first!.length;
  for (const path of rest) {
    let same = 0;
    while (same < length && same < path.length && path[same] === first![same]) same++;
    length = same;
  }
  return first!.slice(0, length);
}

export function joinHeadingPath(path: readonly string[]): string {
  return path.filter((title) => title !== '').join(' > ');
}
