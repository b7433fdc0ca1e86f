/**
 * The search view's filter bar against the real core: two folder connections, notes tagged in
 * their front matter (one tag in Chinese) and a file last modified years ago. Each filter narrows
 * the results from inside the search; the count says so; chips remove one filter, "Clear filters"
 * all. Both languages and themes, 1280×800 and 900×700, with the accessibility check on the bar
 * and an open popover; screenshots kept like the other specs'.
 */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Page } from '@playwright/test';
import { addFolder, expect, screenshot, searchFor, seriousViolations, syncAndWait, test } from './fixtures';

test.use({ locale: 'en-US' });
test.describe.configure({ timeout: 600_000 });

function titles(page: Page) {
  return page.locator('article.hit .hit-title');
}

test('filters narrow search by connection, knowledge base, tag and date, in both languages and themes', async ({
  app,
  backend,
}) => {
  // A second folder beside the notes, with tagged plans; one plan untouched since 2019.
  const work = join(dirname(backend.notesDir), 'work');
  mkdirSync(work, { recursive: true });
  writeFileSync(
    join(work, 'roadmap.md'),
    '---\ntags: [规划, Roadmap]\n---\n# Roadmap plan\n\nThe plan for the release.\n',
  );
  writeFileSync(
    join(work, 'budget.md'),
    '---\ntags: [finance]\n---\n# Budget plan\n\nThe plan for the budget.\n',
  );
  writeFileSync(join(work, 'old-plan.md'), '# Old plan\n\nAn old plan for the release.\n');
  utimesSync(join(work, 'old-plan.md'), new Date('2019-05-01'), new Date('2019-05-01'));
  writeFileSync(join(backend.notesDir, 'team-plan.md'), '# Team plan\n\nThe team plan for the release.\n');

  await addFolder(app, backend);
  await syncAndWait(app, 'notes');
  await app.getByRole('button', { name: 'Connections', exact: true }).click();
  await app.getByRole('button', { name: 'Add connection' }).first().click();
  const tile = app.locator('label.platform-tile', { hasText: 'Local folder' });
  if (await tile.isVisible()) await tile.click();
  await app.getByLabel('Folder path').fill(work);
  await app
    .getByRole('form', { name: 'Add a connection' })
    .getByRole('button', { name: 'Add connection' })
    .click();
  await syncAndWait(app, 'work');

  await searchFor(app, 'plan');
  await expect.poll(() => titles(app).count()).toBeGreaterThanOrEqual(4);
  const unfiltered = await titles(app).count();
  const bar = app.getByRole('toolbar', { name: 'Search filters' });

  // Knowledge base: only the work folder's plans.
  await bar.getByRole('button', { name: 'Knowledge base' }).click();
  await app.getByRole('group', { name: 'Knowledge base' }).getByRole('checkbox', { name: /work/ }).check();
  await app.keyboard.press('Escape');
  await expect(bar.getByRole('button', { name: 'Knowledge base: work' })).toBeFocused();
  await expect(titles(app)).toHaveCount(3);
  await expect(app.locator('.search-meta')).toContainText('with filters');

  // Tag (Chinese): one plan.
  await bar.getByRole('button', { name: 'Tag' }).click();
  await app.getByRole('group', { name: 'Tag' }).getByRole('checkbox', { name: /规划/ }).check();
  await expect(titles(app)).toHaveText(['Roadmap plan']);
  await screenshot(app, 'search-filters-en-light-tag-open');
  expect(await seriousViolations(app), 'axe with a filter popover open').toEqual([]);
  await app.keyboard.press('Escape');

  // Remove the tag by its chip; then the past year leaves the 2019 plan out.
  await app.getByRole('button', { name: 'Remove filter #规划' }).click();
  await expect(titles(app)).toHaveCount(3);
  await bar.getByRole('button', { name: 'Modified' }).click();
  await app.getByRole('radio', { name: 'Past year' }).check();
  await app.keyboard.press('Escape');
  await expect(titles(app)).toHaveCount(2);
  await expect(titles(app).filter({ hasText: 'Old plan' })).toHaveCount(0);
  await screenshot(app, 'search-filters-en-light-1280x800');

  // Nothing matches: the line says filters are on and offers to clear them.
  await searchFor(app, 'notes-only-phrase 报销');
  await expect(app.locator('.empty-line')).toContainText('with these filters');

  // Chinese, dark, 900×700: the same bar, the filters kept while the user stays in the app.
  await app.setViewportSize({ width: 900, height: 700 });
  await app.emulateMedia({ colorScheme: 'dark' });
  await app.getByRole('button', { name: '中文', exact: true }).click();
  const nav = app.getByRole('navigation', { name: 'Cairn' });
  await nav.getByRole('button', { name: '连接', exact: true }).click();
  await nav.getByRole('button', { name: '搜索', exact: true }).click();
  await searchFor(app, 'plan');
  const zhBar = app.getByRole('toolbar', { name: '搜索筛选' });
  await expect(zhBar.getByRole('button', { name: '知识库：work' })).toBeVisible();
  await expect(app.locator('.search-meta')).toContainText('筛选后 2 条结果');
  await zhBar.getByRole('button', { name: /^修改时间/ }).click();
  await screenshot(app, 'search-filters-zh-dark-900x700-date-open');
  expect(await seriousViolations(app), 'axe zh dark').toEqual([]);
  await app.keyboard.press('Escape');
  await zhBar.getByRole('button', { name: '清除筛选' }).click();
  await expect(titles(app)).toHaveCount(unfiltered);
  await screenshot(app, 'search-filters-zh-dark-900x700-cleared');
});
