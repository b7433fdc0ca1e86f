/**
 * Only the query's own words are lit, whole (#27): never 的, never 默认 of 默认值, never Raft of
 * Raftstore; on the result card, in the preview and on a chat source card, as Chromium segments
 * Chinese (its ICU, not Node's).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addFolder, ask, expect, screenshot, searchFor, syncAndWait, test } from './fixtures';

test.use({ locale: 'en-US' });

const DOCUMENT = [
  '# Raftstore 参数',
  '',
  'Raftstore 的默认值由 raft 模块决定，默认配置适用于大多数集群。',
  '',
  '- `store-pool-size` 的默认值：2',
  '',
].join('\n');

/** The marked texts inside `scope`, lower-cased. */
async function marked(scope: import('@playwright/test').Locator): Promise<string[]> {
  return (await scope.locator('mark').allInnerTexts()).map((text) => text.toLowerCase());
}

test('result cards, the preview and source cards light whole query words only', async ({ app, backend }) => {
  writeFileSync(join(backend.notesDir, 'raftstore.md'), DOCUMENT);
  await addFolder(app, backend);
  await syncAndWait(app, 'notes');

  const query = 'raft 的默认值';
  await searchFor(app, query);
  const card = app.getByRole('article', { name: 'Raftstore 参数' });
  await expect(card.locator('mark').first()).toBeVisible();
  const onCard = await marked(card);
  expect(onCard).toContain('默认值');
  expect(new Set(onCard)).toEqual(new Set(['raft', '默认值']));
  await screenshot(app, 'highlight-card-en-light');

  await card.getByRole('button', { name: 'Raftstore 参数' }).click();
  const preview = app.getByRole('dialog', { name: 'Raftstore 参数' });
  await expect(preview.locator('mark').first()).toBeVisible();
  // 默认值 twice, raft once; not 的, not 默认 of 默认配置, not the Raft of Raftstore.
  expect((await marked(preview)).sort()).toEqual(['raft', '默认值', '默认值']);
  await screenshot(app, 'highlight-preview-en-light');
  await app.keyboard.press('Escape');

  await app.emulateMedia({ colorScheme: 'dark' });
  await app.getByRole('button', { name: '中文', exact: true }).click();
  const marker = await ask(app, query, { tab: '问答', box: '提问' });
  await marker.click();
  const source = app.getByRole('article', { name: '[1] Raftstore 参数' });
  await expect(source.locator('blockquote mark').first()).toBeVisible();
  expect(new Set(await marked(source.locator('blockquote')))).toEqual(new Set(['raft', '默认值']));
  await screenshot(app, 'highlight-source-zh-dark');
});
