import {
  addYuque,
  expect,
  fillConnectionForm,
  screenshot,
  searchFor,
  syncAndWait,
  test,
  YUQUE_CARD,
  openedTab,
} from './fixtures';

test.use({ locale: 'en-US' });

test('Yuque and Feishu indexed plus DingTalk searched live answer one query together, each hit badged', async ({
  app,
  backend,
}) => {
  await addYuque(app, backend);
  await syncAndWait(app, YUQUE_CARD);

  const { feishu, dingtalk } = backend;
  await fillConnectionForm(app, 'Feishu', 'Feishu wiki', {
    'API base URL': feishu.baseUrl,
    'App ID': feishu.credentials.appId,
    'App secret': feishu.credentials.appSecret,
    'User refresh token': feishu.credentials.userRefreshToken,
  });
  await app.getByRole('button', { name: 'Test connection' }).click();
  await expect(app.getByRole('status').filter({ hasText: 'Connected to Feishu' })).toContainText(
    'search enabled',
  );
  await app.getByRole('button', { name: 'Add connection' }).click();
  const feishuCard = await syncAndWait(app, 'Feishu wiki');
  // The wiki's documents (its sheets and bitables now read as tables, #17) plus the 2 in My Library, read with
  // the user token that Test connection must not have spent.
  await expect(feishuCard.getByTestId('document-count')).toHaveText('32');

  await fillConnectionForm(app, 'DingTalk', 'DingTalk docs', {
    'API base URL': dingtalk.baseUrl,
    'App key': dingtalk.credentials.appKey!,
    'App secret': dingtalk.credentials.appSecret!,
    'Your unionId': dingtalk.credentials.operatorId!,
  });
  // Off: searched live on DingTalk, nothing stored.
  await app
    .getByRole('form', { name: 'Add a connection' })
    .getByRole('checkbox', { name: 'Keep a local copy for offline search' })
    .uncheck();
  await app.getByRole('button', { name: 'Add connection' }).click();
  const dingtalkCard = app.getByRole('article', { name: 'DingTalk docs' });
  await expect(dingtalkCard.getByTestId('sync-status')).toHaveText('Direct search');
  await expect(dingtalkCard.getByRole('button', { name: 'Sync now' })).toHaveCount(0);
  await screenshot(app, '18-three-platforms');

  await searchFor(app, '数据备份');
  const hits = app.locator('article.hit');
  await expect(hits.first()).toBeVisible();
  await expect
    .poll(async () => new Set(await hits.locator('.badge-platform').allInnerTexts()))
    .toEqual(new Set(['Yuque', 'Feishu', 'DingTalk']));
  for (const hit of await hits.all()) await expect(hit.locator('.badge-kb')).not.toHaveText('');
  const live = hits.filter({ has: app.locator('.badge-live') }).first();
  await expect(live.locator('.badge-platform')).toHaveText('DingTalk');
  await expect(live.locator('.hit-title')).toContainText('数据备份');
  const spaces = [...new Set(dingtalk.control.documents().map((document) => document.knowledgeBase))];
  expect(spaces).toContain(await live.locator('.badge-kb').innerText());
  await live.scrollIntoViewIfNeeded();
  await screenshot(app, '19-fused-search');
  // In the browser host a web link opens in a new tab (the OS opener would act on the host machine).
  expect(await openedTab(app, () => live.getByRole('button', { name: /Open original/ }).click())).toMatch(
    /^https:\/\/alidocs\.dingtalk\.com\/i\/nodes\//,
  );
});
