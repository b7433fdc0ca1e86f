/**
 * Search that explains itself (#27), in the browser host against the real core: each result and
 * source card says when its source was edited and synced; "Why not this document?" follows a
 * document named by its title through the search; each answer shows what it searched for, and an
 * edit of it searches again. Screenshots and axe in both languages and both themes.
 */
import {
  addFolder,
  ask,
  expect,
  LOOKS,
  screenshot,
  searchFor,
  seriousViolations,
  syncAndWait,
  test,
} from './fixtures';

test.use({ locale: 'en-US' });
test.describe.configure({ timeout: 600_000 });

const WORDS = {
  en: {
    search: 'Search',
    whyNot: 'Why not this document?',
    panel: 'Why not this document?',
    document: 'Document',
    verdict: '“报销流程” is not among the results for “VPN troubleshooting”.',
    reason: 'It holds none of the search words.',
    synced: /synced just now|synced \d+ min ago/,
    sort: 'Sort',
  },
  zh: {
    search: '搜索',
    whyNot: '为什么没有找到某个文档？',
    panel: '为什么没有找到这个文档？',
    document: '文档',
    verdict: '“报销流程” 不在 “VPN troubleshooting” 的结果中。',
    reason: '它不含任何检索词。',
    synced: /刚刚同步|\d+ 分钟前同步/,
    sort: '排序',
  },
} as const;

test('results say how fresh they are, and "Why not this document?" says what the search did with one', async ({
  app,
  backend,
}) => {
  await addFolder(app, backend);
  await syncAndWait(app, 'notes');
  await searchFor(app, 'VPN troubleshooting');
  for (const look of LOOKS) {
    const words = WORDS[look.language];
    await app.emulateMedia({ colorScheme: look.theme });
    await app.getByRole('button', { name: look.language === 'zh' ? '中文' : 'EN', exact: true }).click();
    await expect(app.locator('html')).toHaveAttribute('data-theme', look.theme);
    await app.getByRole('button', { name: words.search, exact: true }).click();

    const vpn = app.getByRole('article', { name: 'VPN setup' });
    await expect(vpn).toBeVisible();
    await expect(vpn.locator('.hit-freshness')).toHaveText(words.synced);
    await expect(app.getByRole('combobox', { name: words.sort })).toHaveValue('relevance');

    const panel = app.getByRole('region', { name: words.panel });
    if (!(await panel.isVisible())) await app.getByRole('button', { name: words.whyNot }).click();
    const box = panel.getByRole('combobox', { name: words.document });
    await box.fill('');
    await box.fill('报销');
    const option = panel.getByRole('option', { name: /报销流程/ });
    await expect(option).toBeVisible();
    await box.press('Enter');
    await expect(panel.getByText(words.verdict)).toBeVisible();
    await expect(panel.locator('.why-not-reasons li').first()).toHaveText(words.reason);
    await expect(panel.locator('.why-not-words .word-missing')).not.toHaveCount(0);
    await panel.scrollIntoViewIfNeeded();
    expect(await seriousViolations(app), `axe (${look.language}-${look.theme})`).toEqual([]);
    await screenshot(app, `explain-why-not-${look.language}-${look.theme}`);
  }
});

test('each answer shows what it searched for; an edited query searches again, and source cards say how fresh they are', async ({
  app,
  backend,
}) => {
  await addFolder(app, backend);
  await syncAndWait(app, 'notes');
  await ask(app, 'How do I install the VPN?');
  const first = app.locator('.exchange').first();
  await expect(first.locator('.searched-for')).toHaveText('Searched for “How do I install the VPN?” Edit');
  await expect(first.locator('.source-card .hit-freshness').first()).toHaveText(
    /synced (just now|\d+ min ago)/,
  );

  await first.getByRole('button', { name: 'Edit' }).click();
  await first.getByRole('textbox', { name: 'Search for' }).fill('release day');
  await first.getByRole('button', { name: 'Search and answer again' }).click();
  const second = app.locator('.exchange').nth(1);
  await expect(second.locator('.searched-for')).toHaveText('Searched for “release day” Edit', {
    timeout: 20_000,
  });
  await expect(second.getByRole('article', { name: /Release checklist/ }).first()).toBeVisible();

  for (const look of LOOKS) {
    await app.emulateMedia({ colorScheme: look.theme });
    await app.getByRole('button', { name: look.language === 'zh' ? '中文' : 'EN', exact: true }).click();
    await expect(app.locator('html')).toHaveAttribute('data-theme', look.theme);
    await expect(first.locator('.searched-for')).toHaveText(
      look.language === 'zh'
        ? '检索了 “How do I install the VPN?” 修改'
        : 'Searched for “How do I install the VPN?” Edit',
    );
    await first.locator('.searched-for').scrollIntoViewIfNeeded();
    expect(await seriousViolations(app), `axe (${look.language}-${look.theme})`).toEqual([]);
    await screenshot(app, `explain-searched-for-${look.language}-${look.theme}`);
  }
});
