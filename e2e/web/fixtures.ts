import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { startBackendHost, type BackendHost } from '../support/backend-host';

export const SCREENSHOT_DIR = join(process.cwd(), 'e2e', 'screenshots');

/** Each test gets its own backend and host (fresh state), and a page already on the app. */
export const test = base.extend<{ backend: BackendHost; app: Page }>({
  backend: async ({}, use) => {
    const backend = await startBackendHost();
    await use(backend);
    await backend.close();
  },
  app: async ({ page, backend }, use) => {
    await page.goto(backend.url);
    await expect(page.getByRole('navigation', { name: 'Cairn' })).toBeVisible();
    await use(page);
  },
});

export { expect };

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: false });
}

/** Adds a local-folder connection through the form and waits for its card. */
export async function addFolder(page: Page, path = '/home/demo/notes'): Promise<void> {
  await page.getByRole('button', { name: 'Add a local folder' }).first().click();
  await page.getByLabel('Folder path').fill(path);
  await page.getByRole('button', { name: 'Add connection' }).click();
  await expect(page.getByRole('article', { name: path.split('/').pop() })).toBeVisible();
}

export async function syncAndWait(page: Page, cardName: string): Promise<void> {
  const card = page.getByRole('article', { name: cardName });
  await card.getByRole('button', { name: 'Sync now' }).click();
  await expect(card.getByTestId('sync-status')).toHaveText('Synced', { timeout: 20_000 });
}
