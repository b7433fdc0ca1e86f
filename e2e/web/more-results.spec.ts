/**
 * More results and result actions (#27 item 9, "More results"), in the browser host against the
 * real core: a vault of 55 runbooks that all match "restart". The count says how many matched,
 * Show more reaches 50 and then says why it stops; Newest first orders by the files' dates; the
 * filter menus count the current search's matching documents, not the whole index; "exact phrase"
 * and -word in the box narrow the results and say so; each result copies its path and opens in
 * Obsidian. Screenshots and axe in both languages and both themes.
 */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, LOOKS, screenshot, searchFor, seriousViolations, test } from './fixtures';

// Folders watched as in the app: the watch service is what finds a folder's Obsidian vault.
test.use({ locale: 'en-US', watchFolders: true });
test.describe.configure({ timeout: 600_000 });

const RUNBOOKS = 55;
const pad = (n: number) => String(n).padStart(2, '0');
const tagged = (n: number) => [
  ...(n % 2 === 0 ? ['ops'] : []),
  ...(n % 3 === 0 ? ['运维'] : []),
  ...(n === RUNBOOKS ? ['oncall'] : []),
];
const PHRASE = (n: number) => n <= 6; // "rolling restart"
const DRAFT = (n: number) => n === 5 || n === 6 || n >= 50;
const count = (test: (n: number) => boolean) =>
  Array.from({ length: RUNBOOKS }, (_, i) => i + 1).filter(test).length;

/**
 * An Obsidian vault of runbooks: each says "restart"; a few say "rolling restart", some are drafts;
 * tags by number; file dates one day apart (runbook 55 newest). One budget note matches nothing.
 */
function writeVault(root: string): string {
  const vault = join(root, 'runbooks');
  mkdirSync(join(vault, '.obsidian'), { recursive: true });
  for (let n = 1; n <= RUNBOOKS; n++) {
    const tags = tagged(n);
    const front = tags.length ? `---\ntags: [${tags.join(', ')}]\n---\n` : '';
    const body =
      `# Runbook ${pad(n)}\n\n## Steps\n\n` +
      (PHRASE(n) ? 'Do a rolling restart of the queue workers.' : 'Restart the queue workers one by one.') +
      (DRAFT(n) ? ' This draft is not reviewed yet.' : '') +
      '\n';
    const file = join(vault, `runbook-${pad(n)}.md`);
    writeFileSync(file, front + body);
    const day = new Date(Date.UTC(2025, 0, n));
    utimesSync(file, day, day);
  }
  writeFileSync(
    join(vault, 'budget.md'),
    '---\ntags: [finance]\n---\n# Budget\n\nThe plan for the budget.\n',
  );
  return vault;
}

async function addVault(page: Page, path: string): Promise<void> {
  await page.getByRole('button', { name: 'Add a local folder' }).first().click();
  await page.getByLabel('Folder path').fill(path);
  await page.getByRole('button', { name: 'Add connection' }).click();
  await expect(page.getByRole('article', { name: 'runbooks' })).toBeVisible();
}

const cards = (page: Page) => page.locator('article.hit');

async function openTags(page: Page, labels: { bar: string; tag: string }): Promise<Locator> {
  await page.getByRole('toolbar', { name: labels.bar }).getByRole('button', { name: labels.tag }).click();
  const group = page.getByRole('group', { name: labels.tag });
  await expect(group).toBeVisible();
  return group;
}

/** The text of the count for the option whose label holds `tag`. */
async function tagCount(group: Locator, tag: string): Promise<string> {
  const label = group.locator('label').filter({ hasText: tag });
  return (await label.locator('.filter-count .visually-hidden').textContent()) ?? '';
}

test('Show more to 50, Newest first, the search’s own filter counts, "phrase" and -word, and each result’s actions', async ({
  app,
  backend,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const vault = writeVault(dirname(backend.notesDir));
  await addVault(app, vault);
  // A watched folder's first sync starts by itself.
  const card = app.getByRole('article', { name: 'runbooks' });
  await expect(card.getByTestId('sync-status')).toHaveText('Synced', { timeout: 60_000 });
  await expect(card).toContainText(`${RUNBOOKS + 1}`);

  // Before any search the tag menu counts the whole index: the budget note's tag included.
  await app.getByRole('button', { name: 'Search', exact: true }).click();
  const labels = { bar: 'Search filters', tag: 'Tag' };
  let tags = await openTags(app, labels);
  expect(await tagCount(tags, 'finance')).toBe('1 document');
  expect(await tagCount(tags, 'ops')).toBe(`${count((n) => n % 2 === 0)} documents`);
  await app.keyboard.press('Escape');

  // 55 match. The first page saw 30 candidates and says so ("30+"); Show more reaches 50 of all 55,
  // the first page's ten still first; then the line that says why it stops.
  await searchFor(app, 'restart');
  await expect(app.locator('.search-meta')).toContainText('Top 10 of 30+ results');
  await expect(cards(app)).toHaveCount(10);
  // Its tag counts are floors too. Runbook 55, the only one tagged "oncall", is a draft: its longer
  // text ranks it below the 30 the first page saw, so "oncall" counts none of them, and the menu
  // must not say that none match.
  tags = await openTags(app, labels);
  expect(await tagCount(tags, 'oncall')).toBe('none of the documents counted so far; more may match');
  expect(await tagCount(tags, 'finance')).toBe('none of the documents counted so far; more may match');
  await expect(
    tags.locator('label').filter({ hasText: 'oncall' }).locator('[aria-hidden="true"]'),
  ).toHaveText('0+');
  await expect(
    tags.getByText('Counted over the first matches only: more documents may match.'),
  ).toBeVisible();
  await app.keyboard.press('Escape');
  const firstPage = await cards(app).locator('.hit-title').allTextContents();
  await app.getByRole('button', { name: 'Show 40 more' }).click();
  await expect(app.locator('.search-meta')).toContainText(`Top 50 of ${RUNBOOKS} results`);
  await expect(cards(app)).toHaveCount(50);
  expect((await cards(app).locator('.hit-title').allTextContents()).slice(0, 10)).toEqual(firstPage);
  await expect(app.getByRole('button', { name: /^Show \d+ more$/ })).toHaveCount(0);
  await expect(
    app.getByText('Showing the first 50: add words or filters to reach the others.'),
  ).toBeVisible();

  // The tag menu now counts what "restart" matches, all 55: not the budget note.
  tags = await openTags(app, labels);
  expect(await tagCount(tags, 'finance')).toBe('0 matching documents');
  expect(await tagCount(tags, 'oncall')).toBe('1 matching document');
  await expect(tags.getByText(/more documents may match/)).toHaveCount(0);
  expect(await tagCount(tags, 'ops')).toBe(`${count((n) => n % 2 === 0)} matching documents`);
  expect(await tagCount(tags, '运维')).toBe(`${count((n) => n % 3 === 0)} matching documents`);
  await app.keyboard.press('Escape');

  // Newest first: the files' own dates over every match, runbook 55 down.
  await app.getByRole('combobox', { name: 'Sort' }).selectOption('modified');
  await expect(cards(app).locator('.hit-title').first()).toHaveText('Runbook 55');
  await expect(cards(app).locator('.hit-title').nth(1)).toHaveText('Runbook 54');
  await app.getByRole('combobox', { name: 'Sort' }).selectOption('relevance');

  // "exact phrase" and -word: only runbooks 1-6 hold the phrase, and 5-6 are drafts.
  await searchFor(app, '"rolling restart"');
  await expect(cards(app)).toHaveCount(count(PHRASE));
  await searchFor(app, '"rolling restart" -draft');
  await expect(cards(app)).toHaveCount(count((n) => PHRASE(n) && !DRAFT(n)));
  await expect(cards(app).filter({ hasText: 'draft' })).toHaveCount(0);
  await expect(app.getByText(/^Only passages with the exact phrase “rolling restart”/)).toHaveText(
    WORDS.en.operators,
  );
  // Every runbook says "restart": the scan stopped at its depth on a match, so the counts are floors.
  tags = await openTags(app, labels);
  expect(await tagCount(tags, 'ops')).toBe(
    `at least ${count((n) => PHRASE(n) && !DRAFT(n) && n % 2 === 0)} matching documents`,
  );
  await app.keyboard.press('Escape');
  // -draft over every match, once more are asked for: 47 of the 55 runbooks are not drafts.
  await searchFor(app, 'restart -draft');
  await app.getByRole('button', { name: 'Show 40 more' }).click();
  await expect(app.locator('.search-meta')).toContainText(`${count((n) => !DRAFT(n))} results`);
  await expect(cards(app)).toHaveCount(count((n) => !DRAFT(n)));
  await expect(cards(app).filter({ hasText: 'draft' })).toHaveCount(0);

  // Each result copies its path (with its section) and opens in Obsidian.
  await searchFor(app, '"rolling restart" -draft');
  const first = cards(app).first();
  const title = (await first.locator('.hit-title').textContent())!;
  const file = `runbook-${title.replace('Runbook ', '')}.md`;
  await first.getByRole('button', { name: 'Copy path' }).click();
  await expect(first.getByRole('button', { name: 'Copied' })).toBeVisible();
  const copied = await app.evaluate(() =>
    (globalThis as unknown as ClipboardHost).navigator.clipboard.readText(),
  );
  expect(copied).toBe(`${join(vault, file)}#steps`);
  await expect(first.getByRole('button', { name: 'Open in Obsidian' })).toHaveAttribute(
    'title',
    `obsidian://open?vault=runbooks&file=${encodeURIComponent(file.replace(/\.md$/, ''))}`,
  );

  for (const look of LOOKS) {
    const words = WORDS[look.language];
    await app.emulateMedia({ colorScheme: look.theme });
    await app.getByRole('button', { name: look.language === 'zh' ? '中文' : 'EN', exact: true }).click();
    await expect(app.locator('html')).toHaveAttribute('data-theme', look.theme);
    const name = `${look.language}-${look.theme}`;

    // The operators' line and the tag menu counting this search.
    await searchFor(app, '"rolling restart" -draft');
    await expect(app.getByText(words.operators)).toBeVisible();
    tags = await openTags(app, words);
    await expect(tags.locator('label').filter({ hasText: 'ops' }).locator('.visually-hidden')).toHaveText(
      words.matching(count((n) => PHRASE(n) && !DRAFT(n) && n % 2 === 0)),
    );
    await expect(tags.locator('label').filter({ hasText: 'oncall' }).locator('.visually-hidden')).toHaveText(
      words.noneYet,
    );
    await expect(tags.getByText(words.floorNote)).toBeVisible();
    expect(await seriousViolations(app), `axe, operators and counts (${name})`).toEqual([]);
    await screenshot(app, `more-results-operators-${name}`);
    await app.keyboard.press('Escape');

    // The first page's count: 30 candidates seen, more may match.
    await searchFor(app, 'restart');
    await expect(app.locator('.search-meta')).toHaveText(words.floor);
    await screenshot(app, `more-results-count-${name}`);

    // Newest first, shown to 50, at the end of the list.
    await app.getByRole('combobox', { name: words.sort }).selectOption('modified');
    await expect(cards(app).locator('.hit-title').first()).toHaveText('Runbook 55');
    await app.getByRole('button', { name: words.showMore }).click();
    await expect(cards(app)).toHaveCount(50);
    const atMost = app.getByText(words.atMost);
    await atMost.scrollIntoViewIfNeeded();
    await expect(atMost).toBeVisible();
    expect(await seriousViolations(app), `axe, 50 newest first (${name})`).toEqual([]);
    await screenshot(app, `more-results-50-${name}`);
    await app.getByRole('combobox', { name: words.sort }).selectOption('relevance');
  }
});

interface ClipboardHost {
  navigator: { clipboard: { readText(): Promise<string> } };
}

const WORDS = {
  en: {
    bar: 'Search filters',
    tag: 'Tag',
    sort: 'Sort',
    floor: /^Top 10 of 30\+ results in [\d,]+ ms$/,
    showMore: 'Show 40 more',
    atMost: 'Showing the first 50: add words or filters to reach the others.',
    operators: 'Only passages with the exact phrase “rolling restart”; Leaving out documents with “draft”',
    matching: (n: number) => `at least ${n} matching documents`,
    noneYet: 'none of the documents counted so far; more may match',
    floorNote: 'Counted over the first matches only: more documents may match.',
  },
  zh: {
    bar: '搜索筛选',
    tag: '标签',
    sort: '排序',
    floor: /^至少 30 条结果，显示前 10 条，用时 [\d,]+ 毫秒$/,
    showMore: '再显示 40 条',
    atMost: '只显示前 50 条：加上关键词或筛选条件可找到其余结果。',
    operators: '只看含有完整短语 “rolling restart” 的段落；已排除含有 “draft” 的文档',
    matching: (n: number) => `至少 ${n} 篇匹配的文档`,
    noneYet: '已统计的文档中没有，可能还有更多匹配的文档',
    floorNote: '只统计了前面的匹配结果，可能还有更多匹配的文档。',
  },
} as const;
