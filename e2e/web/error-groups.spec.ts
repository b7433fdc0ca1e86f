/**
 * Looks after a sync where the platform answered every document read with the same broken reply:
 * the card groups the identical failures into one line with a count (not a row per document), in
 * English and Chinese, light and dark; and Settings says how much room the data directory takes.
 */
import { addYuque, expect, screenshot, seriousViolations, test, YUQUE_CARD } from './fixtures';

test.use({ locale: 'en-US' });
test.setTimeout(180_000);

const LOOKS = [
  ['en', 'light'],
  ['zh', 'dark'],
  ['zh', 'light'],
  ['en', 'dark'],
] as const;

test('identical document failures are one line with a count; the Settings size line reads in both languages', async ({
  app,
  backend,
}) => {
  const card = await addYuque(app, backend);
  // Every document read answers HTTP 200 with a cut-off JSON body.
  backend.yuque.control.inject(
    { kind: 'malformed-json' },
    { path: /^\/api\/v2\/repos\/docs\/[^/]+$/, times: 10_000 },
  );
  const failing = backend.yuque.control.store.list().length;
  await card.getByRole('button', { name: 'Sync now' }).click();
  const errors = card.locator('.doc-errors');
  await expect(errors).toBeVisible({ timeout: 60_000 });
  await errors.locator('summary').click();
  const rows = errors.locator('li');
  await expect(rows.first()).toBeVisible();
  // One row for the documents that failed the same way, not one per document.
  expect(await rows.count()).toBeLessThan(failing);

  for (const [language, theme] of LOOKS) {
    await app.emulateMedia({ colorScheme: theme });
    await app.getByRole('button', { name: language === 'zh' ? '中文' : 'EN', exact: true }).click();
    await expect(rows.first()).toContainText(language === 'zh' ? '篇文档（' : 'documents (');
    await card.scrollIntoViewIfNeeded();
    // The toast's Dismiss is one line ("Dismi/ss" and "关/闭" broke where the toast lets Chinese break).
    const dismiss = app
      .locator('.toast')
      .getByRole('button', { name: language === 'zh' ? '关闭' : 'Dismiss' });
    const lines = await dismiss.evaluate((button) => {
      const range = button.ownerDocument.createRange();
      range.selectNodeContents(button);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    });
    expect(lines).toBe(1);
    // Readable in both themes (white on the dark theme's salmon was not).
    expect(await seriousViolations(app), `${language} ${theme}`).toEqual([]);
    await screenshot(app, `error-groups-${language}-${theme}`);
  }

  for (const [language, theme] of LOOKS) {
    await app.emulateMedia({ colorScheme: theme });
    await app.getByRole('button', { name: language === 'zh' ? '中文' : 'EN', exact: true }).click();
    await app.getByRole('button', { name: language === 'zh' ? '设置' : 'Settings', exact: true }).click();
    const size = app.getByTestId('data-dir-size');
    await expect(size).toHaveText(
      language === 'zh'
        ? /^占用磁盘：[\d,.]+ (KB|MB|GB)（索引 [\d,.]+ (KB|MB|GB)）· 所在磁盘剩余 [\d,.]+ (KB|MB|GB)$/
        : /^On disk: [\d,.]+ (KB|MB|GB) \(index [\d,.]+ (KB|MB|GB)\) · [\d,.]+ (KB|MB|GB) free on its volume$/,
    );
    await size.scrollIntoViewIfNeeded();
    await screenshot(app, `settings-size-${language}-${theme}`);
    await app.getByRole('button', { name: language === 'zh' ? '连接' : 'Connections', exact: true }).click();
  }
  await expect(app.getByRole('article', { name: YUQUE_CARD })).toBeVisible();
});
