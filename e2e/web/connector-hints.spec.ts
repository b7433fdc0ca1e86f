/**
 * What issue #28 changed on the connection cards, as a user sees it in both languages and themes:
 * a Feishu bitable that answered no rows is a calm note naming it, and a DingTalk app without
 * Storage.File.Read fails its documents naming the permission (a Chinese headline above core's
 * English sentence). The connections are added through the app's API (the forms are covered
 * elsewhere); the fakes play the platforms.
 */
import type { Page } from '@playwright/test';
import { expect, screenshot, test } from './fixtures';

test.use({ locale: 'en-US' });

const FEISHU = 'Feishu tables';
const DINGTALK = 'DingTalk texts';

async function show(app: Page, language: 'en' | 'zh', theme: 'light' | 'dark', name: string): Promise<void> {
  await app.emulateMedia({ colorScheme: theme });
  await expect(app.locator('html')).toHaveAttribute('data-theme', theme);
  const toggle = app.getByRole('button', { name: language === 'zh' ? '中文' : 'EN', exact: true });
  if ((await app.locator('html').getAttribute('lang'))?.startsWith(language) !== true) await toggle.click();
  for (const card of [FEISHU, DINGTALK]) {
    const details = app.getByRole('article', { name: card }).locator('details.doc-errors');
    if ((await details.count()) > 0 && !(await details.evaluate((d) => (d as { open: boolean }).open)))
      await details.locator('summary').click();
  }
  // The sync's toast would cover the cards' tops.
  const dismiss = app.getByRole('button', { name: language === 'zh' ? '关闭' : 'Dismiss', exact: true });
  if ((await dismiss.count()) > 0) await dismiss.first().click();
  await app.getByRole('article', { name: DINGTALK }).scrollIntoViewIfNeeded();
  await screenshot(app, `${name}-${language}-${theme}`);
}

test('a bitable that returned no rows is noted, and a missing DingTalk permission is named, in English and Chinese', async ({
  app,
  backend,
}) => {
  const { feishu, dingtalk, cairn } = backend;
  feishu.control.hideBitableRows('bitableCairn80003');
  dingtalk.control.revokePermission('Storage.File.Read');
  const feishuView = await cairn.api.connections.add({
    platform: 'feishu',
    name: FEISHU,
    mode: 'rag',
    config: { baseUrl: feishu.baseUrl, appId: feishu.credentials.appId },
    secrets: { appSecret: feishu.credentials.appSecret, userRefreshToken: feishu.control.latestRefreshToken },
  });
  const { appSecret, ...dingtalkConfig } = dingtalk.credentials;
  const dingtalkView = await cairn.api.connections.add({
    platform: 'dingtalk',
    name: DINGTALK,
    mode: 'rag',
    config: { baseUrl: dingtalk.baseUrl, ...dingtalkConfig },
    secrets: { appSecret: appSecret! },
  });
  expect(feishuView.ok && dingtalkView.ok).toBe(true);
  await app.reload();
  for (const name of [FEISHU, DINGTALK]) {
    const card = app.getByRole('article', { name });
    await card.getByRole('button', { name: 'Sync now' }).click();
    await expect(card.getByTestId('sync-status')).toHaveText(/^(Synced|Failed)$/, { timeout: 60_000 });
  }

  const feishuCard = app.getByRole('article', { name: FEISHU });
  const note = feishuCard.getByTestId('partial-note');
  await expect(note).toHaveText(
    'Returned no rows (check the bitable’s advanced permissions): “任务表 Task base”',
  );
  await expect(feishuCard.getByRole('alert')).toHaveCount(0);

  const dingtalkCard = app.getByRole('article', { name: DINGTALK });
  await dingtalkCard.locator('details.doc-errors summary').click();
  const firstError = dingtalkCard.locator('details.doc-errors li').first();
  await expect(firstError).toContainText('The DingTalk app lacks the permission Storage.File.Read');
  await show(app, 'en', 'light', '40-connector-hints');
  await show(app, 'en', 'dark', '40-connector-hints');

  await show(app, 'zh', 'light', '40-connector-hints');
  // The failed sync's line names the permission too (the run's error carries the reason).
  await expect(dingtalkCard.getByRole('alert')).toContainText('钉钉应用缺少权限：Storage.File.Read');
  await expect(note).toHaveText('未返回任何行（请检查多维表格的高级权限）：“任务表 Task base”');
  await expect(firstError).toContainText(
    '钉钉应用缺少权限：Storage.File.Read（请在开发者后台“权限管理”中开通）',
  );
  await show(app, 'zh', 'dark', '40-connector-hints');
});
