import { addFolder, expect, screenshot, syncAndWait, test } from './fixtures';

test.use({ locale: 'en-US' });

test('a new user is led to add a local folder, syncs it, and watches the progress bar move', async ({ app }) => {
  await expect(app.getByRole('heading', { name: 'Start with a local folder' })).toBeVisible();
  await screenshot(app, '01-first-run');

  await app.getByRole('button', { name: 'Add a local folder' }).click();
  await app.getByLabel('Folder path').fill('/home/demo/notes');
  await app.getByRole('button', { name: 'Test connection' }).click();
  await expect(app.getByRole('status').filter({ hasText: 'Connected' })).toContainText('9 documents found');
  await screenshot(app, '02-add-folder');
  await app.getByRole('button', { name: 'Add connection' }).click();

  const card = app.getByRole('article', { name: 'notes' });
  await expect(card.getByTestId('sync-status')).toHaveText('Not synced yet');
  await card.getByRole('button', { name: 'Sync now' }).click();

  const bar = card.getByRole('progressbar');
  const seen = new Set<number>();
  await expect.poll(async () => {
    const now = await bar.getAttribute('aria-valuenow').catch(() => null);
    if (now !== null) seen.add(Number(now));
    return [...seen].filter((value) => value > 0 && value < 9).length;
  }, { timeout: 15_000, intervals: [100] }).toBeGreaterThanOrEqual(2);
  await expect(card.getByTestId('sync-status')).toHaveText('Syncing');
  await screenshot(app, '03-syncing');

  await expect(card.getByTestId('sync-status')).toHaveText('Synced', { timeout: 20_000 });
  await expect(card.getByTestId('document-count')).toHaveText('8');
  await expect(card.getByTestId('chunk-count')).toHaveText('16');
  await card.getByText('1 document could not be indexed').click();
  await expect(card.getByText('Binary file skipped')).toBeVisible();
  await screenshot(app, '04-synced');
});

test('a failing platform shows its reason on the card while search keeps answering', async ({ app }) => {
  await addFolder(app);
  await syncAndWait(app, 'notes');
  await app.getByRole('button', { name: 'Add connection' }).click();
  await app.locator('label.platform-tile', { hasText: 'Yuque' }).click();
  await expect(app.getByRole('radio', { name: 'Yuque' })).toBeChecked();
  await app.getByLabel('Name').fill('Team handbook');
  await app.getByLabel('Personal or team token').fill('expired');
  await app.getByRole('button', { name: 'Add connection' }).click();
  const card = app.getByRole('article', { name: 'Team handbook' });
  await card.getByRole('button', { name: 'Sync now' }).click();
  await expect(card.getByTestId('sync-status')).toHaveText('Failed');
  await expect(card.getByRole('alert')).toHaveText('The access token has expired. Update the credentials and sync again.');
  await screenshot(app, '05-auth-failed');

  await app.keyboard.press('Control+k');
  await app.keyboard.type('VPN');
  await expect(app.getByRole('article', { name: 'VPN setup' })).toHaveCount(2);
});

test('search shows highlighted matches with platform and knowledge-base badges', async ({ app, backend }) => {
  await addFolder(app);
  await syncAndWait(app, 'notes');
  await app.keyboard.press('Control+k');
  await expect(app.getByRole('searchbox')).toBeFocused();
  await app.keyboard.type('报销');
  const hit = app.getByRole('article', { name: '报销流程' }).first();
  await expect(hit).toBeVisible();
  await expect(hit.locator('mark').first()).toHaveText('报销');
  await expect(hit.locator('.badge-platform')).toHaveText('Local folder');
  await expect(hit.locator('.badge-kb')).toHaveText('notes');
  await expect(hit.locator('.heading-path')).toHaveText('报销流程 › 提交报销单');
  await screenshot(app, '06-search');
  await hit.getByRole('button', { name: /Open original/ }).click();
  await expect.poll(() => backend.opened).toEqual(['/home/demo/notes/expense-reimbursement.md']);
});

test('an answer cites [1]; clicking it highlights the source card with the paragraph', async ({ app }) => {
  await addFolder(app);
  await syncAndWait(app, 'notes');
  await app.getByRole('button', { name: 'Ask', exact: true }).first().click();
  await app.getByRole('textbox', { name: 'Ask' }).fill('How do I set up the VPN?');
  await app.keyboard.press('Enter');
  const marker = app.getByRole('button', { name: '[1]', exact: true });
  await expect(marker).toBeVisible({ timeout: 20_000 });
  await expect(app.getByText('Extractive answer')).toBeVisible();
  await marker.click();
  const source = app.getByRole('article', { name: '[1] VPN setup' });
  await expect(source).toHaveAttribute('aria-current', 'true');
  await expect(source).toHaveClass(/highlighted/);
  // The card shows the very paragraph the [1] sentence was taken from.
  const cited = (await app.locator('.answer-body li').first().innerText()).replace(/^VPN setup:\s*/, '').replace(/\s*\[1\]$/, '');
  expect(cited.length).toBeGreaterThan(20);
  await expect(source.locator('blockquote')).toContainText(cited);
  await screenshot(app, '07-chat-cited');
});

test('the interface switches to Chinese and answers Chinese questions', async ({ app }) => {
  await addFolder(app);
  await syncAndWait(app, 'notes');
  await app.getByRole('button', { name: '中文' }).click();
  await expect(app.getByRole('button', { name: '连接', exact: true })).toBeVisible();
  await expect(app.getByRole('article', { name: 'notes' }).getByTestId('sync-status')).toHaveText('已同步');
  await screenshot(app, '08-zh-connections');
  await app.getByRole('button', { name: '问答', exact: true }).click();
  await app.getByRole('textbox', { name: '提问' }).fill('报销流程是什么？');
  await app.keyboard.press('Enter');
  await expect(app.getByText('根据你的文档')).toBeVisible({ timeout: 20_000 });
  await app.getByRole('button', { name: '[1]', exact: true }).click();
  await expect(app.getByRole('article', { name: '[1] 报销流程' })).toHaveAttribute('aria-current', 'true');
  await screenshot(app, '09-zh-chat');
  await app.getByRole('button', { name: '设置', exact: true }).click();
  await expect(app.getByRole('heading', { name: '设置' })).toBeVisible();
  await app.getByLabel('服务商').first().selectOption('openai');
  await expect(app.getByTestId('reindex-notice')).toContainText('8 篇文档');
  await screenshot(app, '10-zh-settings');
});
