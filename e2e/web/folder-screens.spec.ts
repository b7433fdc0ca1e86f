/**
 * The add-folder form (with its count by kind) and a watched folder's card, in English and
 * Chinese, light and dark: what the card says about watching and about files it left out
 * (a scanned PDF, a binary file) is there in both languages.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { pdfBytes } from '../../src-main/testing/file-fixtures';
import { notesFixtureCount } from '../support/notes-folder';
import { expect, SCREENSHOT_DIR, test } from './fixtures';

test.use({ watchFolders: true });

const LOOKS = [
  { language: 'en', scheme: 'light' },
  { language: 'zh', scheme: 'light' },
  { language: 'en', scheme: 'dark' },
  { language: 'zh', scheme: 'dark' },
] as const;

async function look(page: Page, language: 'en' | 'zh', scheme: 'light' | 'dark'): Promise<void> {
  await page.getByRole('button', { name: language === 'zh' ? '中文' : 'EN', exact: true }).click();
  await page.emulateMedia({ colorScheme: scheme });
}

async function shoot(target: Locator, name: string): Promise<void> {
  await target.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
}

test('the add-folder form counts files by kind, and a watched folder card says what it left out, in en and zh', async ({
  app,
  backend,
}) => {
  writeFileSync(
    join(backend.notesDir, 'budget-report.pdf'),
    pdfBytes(
      [
        ['Budget 2026', 'The hangar budget is approved.'],
        ['Appendix', 'Suppliers and dates.'],
      ],
      {
        title: 'Budget report',
      },
    ),
  );
  writeFileSync(join(backend.notesDir, 'scanned-contract.pdf'), pdfBytes([[]], { scanned: true }));

  await app.getByRole('button', { name: 'Add a local folder' }).first().click();
  await app.getByLabel('Folder path').fill(backend.notesDir);
  const form = app.getByRole('form', { name: /^(Add a connection|添加连接)$/ });
  // The fixture's Markdown notes, the binary .txt (listed, refused when read) and two PDFs.
  await expect(form).toContainText(`Will index ${notesFixtureCount() + 3} files`);
  await expect(form).toContainText('2 PDF');
  for (const { language, scheme } of LOOKS) {
    await look(app, language, scheme);
    if (language === 'zh') await expect(form).toContainText(`将索引 ${notesFixtureCount() + 3} 个文件`);
    await shoot(form, `folder-form-${language}-${scheme}`);
  }

  await look(app, 'en', 'light');
  await form.getByRole('button', { name: 'Add connection' }).click();
  const card = app.getByRole('article', { name: 'notes' });
  // Watching: the new connection syncs by itself, without "Sync now".
  await expect(card.getByTestId('sync-status')).toHaveText('Synced', { timeout: 120_000 });
  await expect(card).toContainText('Watching: saved files are indexed within seconds');
  const leftOut = card.getByRole('list', { name: 'Left out of the index' });
  await expect(leftOut).toContainText('PDFs with no text, scanned images (no OCR): 1');
  await expect(leftOut).toContainText('Files with binary content: 1');
  for (const { language, scheme } of LOOKS) {
    await look(app, language, scheme);
    if (language === 'zh') {
      await expect(card).toContainText('监视中：保存的文件几秒内即可搜索');
      await expect(card.getByRole('list', { name: '未编入索引' })).toContainText('没有文字');
    }
    await shoot(card, `folder-card-${language}-${scheme}`);
  }
});
