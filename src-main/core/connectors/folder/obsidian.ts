/**
 * Obsidian's own Markdown: `[[wikilinks]]` and `![[embeds]]` become the words a reader sees
 * (the alias, else the target note's front-matter title, else its name; "Note > Heading" for a
 * heading link: note-titles.ts), so the index
 * holds text rather than link syntax; and a vault (a folder with `.obsidian/`) gets
 * obsidian://open links so "Open original" can open the note in Obsidian.
 * https://help.obsidian.md/Linking+notes+and+files/Internal+links, https://help.obsidian.md/Extending+Obsidian/Obsidian+URI
 */
import { access } from 'node:fs/promises';
import { basename, join } from 'node:path';

const WIKILINK = /(!?)\[\[([^\]\n]+?)\]\]/g;
const FENCE = /^( {0,3})(`{3,}|~{3,})/;

/** The title of a link's target note (its file part, e.g. "plans/Q3"), or null to keep the name. */
export type LinkTitle = (target: string) => string | null;

/** The text a reader sees for one link's inside (`target#heading^block|alias`). */
function linkText(inside: string, titleOf: LinkTitle | undefined): string {
  const bar = inside.indexOf('|');
  if (bar !== -1 && inside.slice(bar + 1).trim()) return inside.slice(bar + 1).trim();
  const target = (bar === -1 ? inside : inside.slice(0, bar)).trim();
  const [file = '', ...anchors] = target.split('#');
  const name = file.split('/').pop()!.replace(/\.md$/i, '').trim();
  const note = (name && titleOf?.(file.trim())) || name;
  const anchor = anchors.join('#').replace(/^\^/, '').trim();
  if (!note) return anchor;
  return anchor && !anchor.startsWith('^') ? `${note} > ${anchor}` : note;
}

/**
 * Replaces wikilinks and embeds outside fenced code and inline code with their text: the alias,
 * else the target note's title (`titleOf`: its front matter's), else its file name.
 */
export function renderWikilinks(markdown: string, titleOf?: LinkTitle): string {
  if (!markdown.includes('[[')) return markdown;
  const lines = markdown.split('\n');
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const marker = FENCE.exec(line)?.[2];
    if (marker) {
      if (fence === null) fence = marker[0]!;
      else if (marker[0] === fence) fence = null;
      continue;
    }
    if (fence !== null || !line.includes('[[')) continue;
    // Inline code spans keep their text as written.
    lines[i] = line
      .split(/(`+[^`]*`+)/)
      .map((piece, index) =>
        index % 2 === 1
          ? piece
          : piece.replace(WIKILINK, (_all, _bang, inside: string) => linkText(inside, titleOf)),
      )
      .join('');
  }
  return lines.join('\n');
}

/** The vault's name when `root` is an Obsidian vault (it has a `.obsidian` folder), else null. */
export async function obsidianVaultName(root: string): Promise<string | null> {
  try {
    await access(join(root, '.obsidian'));
    return basename(root);
  } catch {
    return null;
  }
}

/** obsidian://open for a note of a vault (the vault by name, the file by its path in the vault). */
export function obsidianUrl(vault: string, externalId: string): string {
  return `obsidian://open?vault=${encodeURIComponent(vault)}&file=${encodeURIComponent(externalId.replace(/\.md$/i, ''))}`;
}
