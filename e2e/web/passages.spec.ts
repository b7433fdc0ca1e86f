/**
 * A passage is labelled and shown by its own nearest heading (#27 item 8): a chunk of several short
 * sections stores the path they share ("系统变量 > 变量参考"), yet the card names the section its
 * match sits in, shows no Markdown backticks, and "Show in document" lands on that heading.
 * English and Chinese, light and dark.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addFolder, expect, screenshot, searchFor, syncAndWait, test } from './fixtures';

test.use({ locale: 'en-US' });
// Four rounds (two languages, two themes), each a search and a preview.
test.setTimeout(240_000);

// Long enough that the preview must scroll to reach the variables.
const OVERVIEW = Array.from(
  { length: 16 },
  (_, i) => `${i + 1}. ${'系统变量用于调整服务器的行为。'.repeat(12)}`,
).join('\n\n');
const VARIABLES = [
  '# 系统变量',
  '',
  '## 概述',
  '',
  OVERVIEW,
  '',
  '## 变量参考',
  '',
  '### `tidb_mem_quota_query`',
  '',
  '- 默认值：`1073741824`',
  '- 设置单条 SQL 语句的内存使用限制。',
  '',
  '### `tidb_mem_oom_action`',
  '',
  '- 默认值：`CANCEL`',
  '- 超过内存配额时，取消查询或只写日志。',
  '',
  '## 相关阅读',
  '',
  OVERVIEW,
  '',
].join('\n');

test('a passage is labelled by its own heading, without backticks, and Show in document lands on it', async ({
  app,
  backend,
}) => {
  writeFileSync(join(backend.notesDir, 'system-variables.md'), VARIABLES);
  await addFolder(app, backend);
  await syncAndWait(app, 'notes');

  for (const [language, theme] of [
    ['en', 'light'],
    ['zh', 'dark'],
    ['zh', 'light'],
    ['en', 'dark'],
  ] as const) {
    await app.emulateMedia({ colorScheme: theme });
    await app.getByRole('button', { name: language === 'zh' ? '中文' : 'EN', exact: true }).click();
    await searchFor(app, '取消查询');
    const card = app.getByRole('article', { name: '系统变量' });
    await expect(card.locator('.heading-path')).toHaveText('变量参考 › tidb_mem_oom_action');
    await expect(card.locator('.hit-text')).not.toContainText('`');
    await screenshot(app, `passage-heading-${language}-${theme}`);

    await card.getByRole('button', { name: '系统变量' }).click();
    const preview = app.getByRole('dialog', { name: '系统变量' });
    const heading = preview.getByRole('heading', { name: 'tidb_mem_oom_action' });
    await expect(heading).toBeInViewport();
    // At the top of the document's scroll area (it scrolled there), not somewhere below it.
    const [top, headingTop] = await Promise.all([
      preview.locator('.preview-document').evaluate((element) => element.getBoundingClientRect().top),
      heading.evaluate((element) => element.getBoundingClientRect().top),
    ]);
    expect(headingTop - top).toBeGreaterThanOrEqual(0);
    expect(headingTop - top).toBeLessThan(80);
    await screenshot(app, `passage-preview-${language}-${theme}`);
    await app.keyboard.press('Escape');
    await expect(preview).toBeHidden();
  }
});
