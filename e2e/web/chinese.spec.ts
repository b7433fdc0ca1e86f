import {
  addFolder,
  addYuque,
  ask,
  expect,
  screenshot,
  searchFor,
  syncAndWait,
  test,
  YUQUE_CARD,
} from './fixtures';

test.use({ locale: 'en-US' });

test('the interface switches to Chinese: cards, errors, search badges, a cited Chinese answer and settings', async ({
  app,
  backend,
}) => {
  await addFolder(app, backend);
  await syncAndWait(app, 'notes');
  await addYuque(app, backend);
  await syncAndWait(app, YUQUE_CARD);
  const documents =
    Number(await app.getByTestId('document-count').first().innerText()) +
    Number(await app.getByTestId('document-count').last().innerText());

  await app.getByRole('button', { name: '中文' }).click();
  await expect(app.getByRole('button', { name: '连接', exact: true })).toBeVisible();
  await expect(app.getByRole('article', { name: 'notes' }).getByTestId('sync-status')).toHaveText('已同步');
  backend.yuque.control.expireToken();
  const yuqueCard = app.getByRole('article', { name: YUQUE_CARD });
  await yuqueCard.getByRole('button', { name: '立即同步' }).click();
  await expect(yuqueCard.getByTestId('sync-status')).toHaveText('同步失败', { timeout: 20_000 });
  // Errors say what went wrong in Chinese; core's English sentence stays beneath for the details.
  const syncError = yuqueCard.getByRole('alert');
  await expect(syncError.locator('.error-headline')).toHaveText('平台拒绝了凭证');
  await expect(syncError.locator('.error-detail')).toContainText('Yuque rejected the token');
  await yuqueCard.getByRole('button', { name: '编辑' }).click();
  const form = app.getByRole('form', { name: `编辑“${YUQUE_CARD}”` });
  await form.getByRole('button', { name: '测试连接' }).click();
  await expect(form.getByRole('status').locator('.error-headline')).toHaveText('平台拒绝了凭证');
  await expect(form.getByRole('status').locator('.error-detail')).toContainText('Yuque rejected the token');
  await screenshot(app, '14a-zh-test-failed');
  await form.getByRole('button', { name: '取消' }).click();
  await screenshot(app, '14-zh-connections');

  await searchFor(app, '数据备份');
  const hit = app.getByRole('article', { name: '数据备份指南 7' }).first();
  await expect(hit.locator('.badge-platform')).toHaveText('语雀');
  await expect(hit.locator('.badge-kb')).toHaveText('产品手册');
  await screenshot(app, '15-zh-search');

  const marker = await ask(app, '报销流程是什么？', { tab: '问答', box: '提问' });
  await expect(app.getByText('摘录式回答：直接引用你的文档')).toBeVisible();
  await marker.click();
  const source = app.getByRole('article', { name: '[1] 报销流程' });
  await expect(source).toHaveAttribute('aria-current', 'true');
  await expect(source.locator('.badge-platform')).toHaveText('本地文件夹');
  await expect(source.locator('blockquote')).toContainText('报销');
  await screenshot(app, '16-zh-chat');

  await app.getByRole('button', { name: '设置', exact: true }).click();
  await expect(app.getByRole('heading', { name: '设置' })).toBeVisible();
  await app.getByLabel('服务商').first().selectOption('openai');
  await expect(app.getByTestId('reindex-notice')).toContainText(`${documents} 篇文档`);
  await screenshot(app, '17-zh-settings');
});
