/**
 * A platform server that goes away mid-sync (#27 item 1), as the user sees it: the sync stops as
 * failed naming the address after a few attempts in a row, the card keeps its documents, and what
 * was not reached waits for the next sync (one sentence, no list of identical document errors).
 * English and Chinese, light and dark.
 */
import type { Locator, Page } from '@playwright/test';
import { addYuque, expect, screenshot, seriousViolations, syncAndWait, test, YUQUE_CARD } from './fixtures';

test.use({ locale: 'en-US' });

async function show(app: Page, card: Locator, language: 'en' | 'zh', theme: 'light' | 'dark'): Promise<void> {
  await app.emulateMedia({ colorScheme: theme });
  await expect(app.locator('html')).toHaveAttribute('data-theme', theme);
  if ((await app.locator('html').getAttribute('lang'))?.startsWith(language) !== true)
    await app.getByRole('button', { name: language === 'zh' ? '中文' : 'EN', exact: true }).click();
  // The screenshot waits for the switch: the zh-dark look was taken of the English page.
  await expect(app.locator('html')).toHaveAttribute('lang', new RegExp(`^${language}`));
  // The sync's toast would cover the card's top.
  const dismiss = app.getByRole('button', { name: language === 'zh' ? '关闭' : 'Dismiss', exact: true });
  if ((await dismiss.count()) > 0) await dismiss.first().click();
  await card.scrollIntoViewIfNeeded();
  await screenshot(app, `31-dead-source-${language}-${theme}`);
  // The Chinese card has every element of the English one, and core's sentence beneath the headline.
  if (language === 'zh') expect(await seriousViolations(app)).toEqual([]);
}

test('a Yuque server that goes away mid-sync stops the sync as failed, naming the address; the index is kept and the rest waits', async ({
  app,
  backend,
}) => {
  // Two syncs, four screenshots and two axe runs.
  test.setTimeout(120_000);
  const card = await addYuque(app, backend);
  await syncAndWait(app, YUQUE_CARD);
  const documents = await card.getByTestId('document-count').innerText();
  // Every document changes upstream, so the next sync fetches each; the server goes away at the first.
  const yuque = backend.yuque.control;
  for (const document of yuque.store.list())
    yuque.changeDocument(document.id, { text: `${document.title}\nRewritten.` });
  yuque.inject({ kind: 'go-away' }, { path: /^\/api\/v2\/repos\/docs\/[^/]+$/ });

  await card.getByRole('button', { name: 'Sync now' }).click();
  await expect(card.getByTestId('sync-status')).toHaveText('Failed', { timeout: 30_000 });
  const alert = card.getByRole('alert');
  await expect(alert).toHaveText(
    /^Cannot reach 127\.0\.0\.1:\d+ \([A-Z_]+\): the sync stopped after 3 attempts in a row; [\d,]+ documents? not reached waits? for the next sync, and the index keeps what it had\.$/,
  );
  // Nothing failed document by document, and nothing was dropped from the index.
  await expect(card.locator('.doc-errors')).toHaveCount(0);
  await expect(card.getByTestId('document-count')).toHaveText(documents);
  await show(app, card, 'en', 'light');
  await show(app, card, 'en', 'dark');

  await show(app, card, 'zh', 'dark');
  await expect(alert).toContainText(
    /^无法连接 127\.0\.0\.1:\d+，同步已停止：未读取的文档等待下次同步，现有索引保持不变\s*Cannot reach 127\.0\.0\.1:\d+/,
  );
  await show(app, card, 'zh', 'light');
});
