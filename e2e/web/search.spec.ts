import {
  addFolder,
  addYuque,
  expect,
  screenshot,
  searchFor,
  syncAndWait,
  test,
  YUQUE_CARD,
  openedTab,
} from './fixtures';

test.use({ locale: 'en-US' });

test('search finds folder and Yuque documents with highlights, platform and knowledge-base badges', async ({
  app,
  backend,
}) => {
  await addFolder(app, backend);
  await syncAndWait(app, 'notes');
  await addYuque(app, backend);
  await syncAndWait(app, YUQUE_CARD);

  await searchFor(app, '报销');
  const folderHit = app.getByRole('article', { name: '报销流程' }).first();
  await expect(folderHit).toBeVisible();
  await expect(folderHit.locator('mark').first()).toHaveText('报销');
  await expect(folderHit.locator('.badge-platform')).toHaveText('Local folder');
  await expect(folderHit.locator('.badge-kb')).toHaveText('notes');
  // The heading path would only repeat the title: not shown.
  await expect(folderHit.locator('.heading-path')).toHaveCount(0);
  await screenshot(app, '09-search-folder');
  // A local file in the browser host opens in the in-app preview (the OS opener would act on the host machine).
  await folderHit.getByRole('button', { name: /Open original/ }).click();
  const preview = app.getByRole('dialog', { name: '报销流程' });
  await expect(preview.getByRole('region', { name: 'The passage you opened' })).toBeVisible();
  await app.keyboard.press('Escape');
  await expect(preview).toBeHidden();
  expect(backend.opened).toEqual([]);

  await searchFor(app, '数据备份');
  const yuqueHit = app.getByRole('article', { name: '数据备份指南 7' }).first();
  await expect(yuqueHit).toBeVisible();
  // Chinese queries are segmented into words; each is marked.
  await expect(yuqueHit.locator('mark', { hasText: '数据' }).first()).toBeVisible();
  await expect(yuqueHit.locator('mark', { hasText: '备份' }).first()).toBeVisible();
  await expect(yuqueHit.locator('.badge-platform')).toHaveText('Yuque');
  await expect(yuqueHit.locator('.badge-kb')).toHaveText('产品手册');

  await searchFor(app, 'rate limiting');
  const englishHit = app.getByRole('article', { name: 'Notes on rate limiting 12' }).first();
  await expect(englishHit).toBeVisible();
  await expect(englishHit.locator('.badge-platform')).toHaveText('Yuque');
  await expect(englishHit.locator('.badge-kb')).toHaveText('团队周报 Weekly');
  await expect(englishHit.locator('mark').first()).toHaveText(/rate|limiting/i);
  // One card per document: the release notes match in several sections, shown under one card.
  const titles = await app.locator('article.hit .hit-title').allInnerTexts();
  expect(titles.length).toBeGreaterThan(1);
  expect(new Set(titles).size).toBe(titles.length);
  const release = app.getByRole('article', { name: 'Notes on release process 10' });
  const more = release.getByRole('button', { name: /^\d more passages? in this document$/ });
  const count = Number((await more.innerText()).split(' ')[0]);
  expect(count).toBeGreaterThanOrEqual(1);
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  await more.click();
  const passages = release.getByRole('list', { name: 'Other matching passages' }).getByRole('listitem');
  await expect(passages).toHaveCount(count);
  for (const passage of await passages.all())
    await expect(passage.locator('mark').first()).toHaveText(/rate|limiting/i);
  await screenshot(app, '10-search-yuque');
  await release.getByRole('button', { name: 'Hide the other passages' }).click();
  await expect(passages).toHaveCount(0);
  expect(
    await openedTab(app, () => englishHit.getByRole('button', { name: /Open original/ }).click()),
  ).toMatch(new RegExp(`^${new URL(backend.yuque.baseUrl).origin}/`));
});
