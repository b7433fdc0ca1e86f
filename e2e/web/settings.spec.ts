/** Settings save per section, and leaving the page never drops a change silently (#27 item 2). */
import { expect, screenshot, test } from './fixtures';

test.use({ locale: 'en-US' });

test('a chat model set up and tested is kept when leaving Settings: asked, saved, and still there after a reload', async ({
  app,
  backend,
}) => {
  await app.getByRole('button', { name: 'Settings', exact: true }).click();
  const chat = app.getByRole('group', { name: 'Chat model' });
  await chat.getByLabel('Provider').selectOption('custom');
  await chat.getByLabel('Base URL').fill(backend.chatModel.baseUrl);
  await chat.getByLabel('Model').fill(backend.chatModel.model);
  await chat.getByLabel('API key').fill(backend.chatModel.apiKey);
  await chat.getByRole('button', { name: 'Test', exact: true }).click();
  await expect(chat.locator('.test-result.ok')).toBeVisible();
  await expect(chat.getByText('Unsaved changes')).toBeVisible();

  await app.getByRole('button', { name: 'Ask', exact: true }).click();
  const dialog = app.getByRole('alertdialog', { name: 'Save your changes?' });
  await expect(dialog).toContainText('Chat model: changes not saved yet.');
  await expect(dialog.getByRole('button', { name: 'Save and continue' })).toBeFocused();
  await screenshot(app, 'settings-leave-dialog');
  await dialog.getByRole('button', { name: 'Save and continue' }).click();
  await expect(app.getByRole('heading', { name: 'Ask your documents' })).toBeVisible();

  await app.reload();
  await app.getByRole('button', { name: 'Settings', exact: true }).click();
  const saved = app.getByRole('group', { name: 'Chat model' });
  await expect(saved.getByLabel('Provider')).toHaveValue('custom');
  await expect(saved.getByLabel('Model')).toHaveValue(backend.chatModel.model);
  await expect(saved.getByLabel('API key')).toHaveAttribute('placeholder', 'saved (leave empty to keep)');
  await expect(saved.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
});

test('Settings says the index is keyword search until a semantic model is chosen, in English and Chinese, light and dark', async ({
  app,
}) => {
  await app.getByRole('button', { name: 'Settings', exact: true }).click();
  const index = app.getByTestId('search-index');
  const views = [
    [
      'en',
      'light',
      'Embeddings',
      'None: keyword search (offline)',
      'Search index: keyword search; add a semantic model for meaning-based search.',
    ],
    [
      'en',
      'dark',
      'Embeddings',
      'None: keyword search (offline)',
      'Search index: keyword search; add a semantic model for meaning-based search.',
    ],
    [
      'zh',
      'light',
      '向量模型',
      '无：关键词搜索（离线）',
      '搜索索引：关键词搜索；添加语义模型即可按含义搜索。',
    ],
    [
      'zh',
      'dark',
      '向量模型',
      '无：关键词搜索（离线）',
      '搜索索引：关键词搜索；添加语义模型即可按含义搜索。',
    ],
  ] as const;
  for (const [language, theme, group, provider, says] of views) {
    await app.emulateMedia({ colorScheme: theme });
    const toggle = app.getByRole('button', { name: language === 'zh' ? '中文' : 'EN', exact: true });
    if ((await app.locator('html').getAttribute('lang'))?.startsWith(language) !== true) await toggle.click();
    await expect(index).toHaveText(says);
    const select = app
      .getByRole('group', { name: group })
      .getByLabel(language === 'zh' ? '服务商' : 'Provider');
    await expect(select).toHaveValue('builtin');
    await expect(select.locator('option:checked')).toHaveText(provider);
    await index.scrollIntoViewIfNeeded();
    await screenshot(app, `settings-keyword-only-${language}-${theme}`);
  }
});
