/**
 * `[[wikilinks]]` and `![[embeds]]` read as the target note's front-matter title: the alias
 * first, the file name when the target has no title or does not exist; a title that changes is
 * seen by the next run.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentRef } from '../connector';
import { FolderConnector } from './folder-connector';

let vault: string;

async function put(relativePath: string, content: string): Promise<void> {
  const path = join(vault, ...relativePath.split('/'));
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, content);
}

/** One sync's view: a fresh connector lists the folder, then reads the note. */
async function bodyOf(externalId: string): Promise<string> {
  const connector = new FolderConnector({ root: vault });
  try {
    const refs: DocumentRef[] = [];
    for await (const ref of connector.list()) refs.push(ref);
    const ref = refs.find((candidate) => candidate.externalId === externalId)!;
    const fetched = await connector.fetch(ref);
    return fetched.markdown.replace(/^---[\s\S]*?\n---\n/, '');
  } finally {
    await connector.dispose();
  }
}

beforeAll(async () => {
  vault = await mkdtemp(join(tmpdir(), 'cairn-links-'));
  await put('2024-q3.md', '---\ntitle: "Quarterly plan"\ntags: [plan]\n---\n# Heading is not the title\n');
  await put('people/ada.md', '---\ntitle: Ada Lovelace\n---\nNotes.\n');
  await put('people/untitled.md', '# A heading only\n\nNo front matter.\n');
  await put('people/readme.md', '---\ntitle: People index\n---\n');
  await put('readme.md', '---\ntitle: Vault home\n---\n');
  await put(
    'people/links.md',
    [
      'See [[2024-q3]] and ![[2024-q3]].',
      'Budget: [[2024-q3#Budget]]; aliased: [[2024-q3|the plan]].',
      'By path: [[people/ada]], with extension: [[ada.md]].',
      'No title: [[untitled]]; no such note: [[nowhere]]; an image: ![[diagram.png]].',
      'Same name twice: [[readme]].',
      'Code stays: `[[2024-q3]]`',
      '```',
      '[[2024-q3]]',
      '```',
    ].join('\n'),
  );
});

afterAll(async () => {
  await rm(vault, { recursive: true, force: true });
});

describe('wikilinks show their target note title', () => {
  it('renders links and embeds as the front-matter title, with alias, heading and fallbacks', async () => {
    expect(await bodyOf('people/links.md')).toBe(
      [
        'See Quarterly plan and Quarterly plan.',
        'Budget: Quarterly plan > Budget; aliased: the plan.',
        'By path: Ada Lovelace, with extension: Ada Lovelace.',
        'No title: untitled; no such note: nowhere; an image: diagram.png.',
        'Same name twice: People index.',
        'Code stays: `[[2024-q3]]`',
        '```',
        '[[2024-q3]]',
        '```',
      ].join('\n'),
    );
  });

  it('a note beside the root resolves a bare name to the nearest note', async () => {
    await put('index.md', 'Start at [[readme]], meet [[ada]].');
    expect(await bodyOf('index.md')).toBe('Start at Vault home, meet Ada Lovelace.');
  });

  it('reads a changed title on the next run, and falls back to the name once the title is gone', async () => {
    await put('people/ada.md', '---\ntitle: Countess of Lovelace\n---\nNotes, edited.\n');
    await put('note.md', 'Ask [[ada]].');
    expect(await bodyOf('note.md')).toBe('Ask Countess of Lovelace.');
    await put('people/ada.md', 'No front matter any more, a longer body this time.\n');
    expect(await bodyOf('note.md')).toBe('Ask ada.');
  });

  it('reads titles when a note is fetched without a listing first', async () => {
    const connector = new FolderConnector({ root: vault });
    try {
      const fetched = await connector.fetch({
        externalId: 'people/links.md',
        title: 'links',
        knowledgeBase: 'vault',
        url: null,
        remoteUpdatedAt: null,
        revision: null,
      });
      expect(fetched.markdown).toContain('See Quarterly plan and Quarterly plan.');
    } finally {
      await connector.dispose();
    }
  });
});
