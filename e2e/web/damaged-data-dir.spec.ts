/**
 * A damaged database in the browser UI (issue #25 item 1): `cairn serve`'s core (recoverable-cairn.ts)
 * on a data directory whose database lost PG_VERSION shows the refusal with the folder, why, and the
 * two ways on, in English and Chinese, light and dark; "Rebuild index" brings back the connection with
 * its index rebuilt from the folder, found by search.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import { createCairn } from '../../src-main/core/app/create-cairn';
import { dataDirLayout } from '../../src-main/core/app/data-dir';
import { openRecoverableCairn, type RecoverableCairn } from '../../src-main/core/app/recoverable-cairn';
import { silentLogger } from '../../src-main/core/logging/logger';
import { startHttpHost } from '../../src-main/host/http-host';
import { RENDERER_DIR } from '../support/backend-host';
import { writeNotesFolder } from '../support/notes-folder';
import { screenshot } from './fixtures';

let scratch: string;
let dataDir: string;
let app: RecoverableCairn;
let host: Awaited<ReturnType<typeof startHttpHost>>;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  scratch = mkdtempSync(join(tmpdir(), 'cairn-e2e-damaged-'));
  dataDir = join(scratch, 'data');
  const notes = writeNotesFolder(join(scratch, 'notes'));
  const open = () =>
    createCairn({ dataDir, env: {}, scheduler: false, watchFolders: false, logger: silentLogger() });
  const first = await open();
  const added = await first.api.connections.add({
    platform: 'folder',
    name: 'Team notes',
    mode: 'rag',
    config: { path: notes },
    secrets: {},
  });
  if (!added.ok) throw new Error(added.error.message);
  await first.api.sync.start({ connectionId: added.value.id });
  await first.whenIdle();
  await first.dispose();
  rmSync(join(dataDirLayout(dataDir).database, 'PG_VERSION'));
  app = await openRecoverableCairn({ dataDir, open, logger: silentLogger() });
  host = await startHttpHost({
    api: app.api,
    events: app.events,
    rendererDir: RENDERER_DIR,
    openExternal: async () => {},
  });
});

test.afterAll(async () => {
  await host?.close();
  await app?.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

async function refusalIn(page: Page): Promise<void> {
  await page.goto(host.url);
  await expect(page.getByRole('alert')).toContainText(dataDirLayout(dataDir).database);
  await expect(page.getByRole('alert')).toContainText('PG_VERSION is missing');
}

test('shows the refusal with the folder, why and both choices, in both languages and themes', async ({
  browser,
}) => {
  for (const locale of ['en-US', 'zh-CN'] as const)
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ locale, colorScheme });
      const page = await context.newPage();
      await refusalIn(page);
      const zh = locale === 'zh-CN';
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        zh ? '无法打开 Cairn 的数据库' : 'Cairn could not open its database',
      );
      await expect(page.getByRole('button', { name: zh ? '重建索引' : 'Rebuild index' })).toBeEnabled();
      await expect(page.getByRole('button', { name: zh ? '重新开始' : 'Start fresh' })).toBeEnabled();
      await screenshot(page, `damaged-data-dir-${zh ? 'zh' : 'en'}-${colorScheme}`);
      // "Start fresh" asks first; saying no leaves everything as it was.
      await page.getByRole('button', { name: zh ? '重新开始' : 'Start fresh' }).click();
      await expect(page.getByRole('alertdialog')).toBeVisible();
      if (!zh && colorScheme === 'light') await screenshot(page, 'damaged-data-dir-en-fresh-confirm');
      await page.getByRole('button', { name: zh ? '保留' : 'Keep it' }).click();
      await context.close();
    }
});

test('"Rebuild index" restores the connection and rebuilds its index from the folder', async ({ page }) => {
  test.setTimeout(180_000);
  await refusalIn(page);
  await page.getByRole('button', { name: 'Rebuild index' }).click();
  await expect(page.getByRole('navigation', { name: 'Cairn' })).toBeVisible({ timeout: 60_000 });
  const card = page.locator('.card', { hasText: 'Team notes' });
  await expect(card).toBeVisible();
  await expect(card).toContainText(/Synced/, { timeout: 120_000 });
  await screenshot(page, 'damaged-data-dir-rebuilt-en');
  await page.getByPlaceholder('Search all your documents…').fill('VPN');
  await expect(page.locator('article.hit').first()).toBeVisible({ timeout: 30_000 });
});
