import { join } from 'node:path';
import { addFolder, addYuque, expect, syncAndWait, test, YUQUE_CARD, useFakeChatModel } from './fixtures';
import type { Page } from '@playwright/test';

test.use({ locale: 'en-US' });
test.describe.configure({ timeout: 600_000 });
const DIR = process.env.TOUR_DIR ?? '/tmp/ui/shots';
const shot = (page: Page, name: string) => page.screenshot({ path: join(DIR, `${name}.png`) });

test('tour', async ({ app, backend }) => {
  await addFolder(app, backend);
  await syncAndWait(app, 'notes');
  await addYuque(app, backend);
  await syncAndWait(app, YUQUE_CARD);
  await shot(app, 'connections');
  await useFakeChatModel(app, backend);
  await shot(app, 'settings');
  await app.getByRole('searchbox').fill('报销');
  await app.waitForTimeout(800);
  await shot(app, 'search-zh-query');
  await app.getByRole('searchbox').fill('rate limiting');
  await app.waitForTimeout(800);
  await shot(app, 'search-en-query');
  await app.locator('.hit-list .hit-open').first().click();
  await app.waitForTimeout(800);
  await shot(app, 'preview');
  await app.keyboard.press('Escape');
  await app.getByRole('button', { name: 'Ask', exact: true }).first().click();
  await shot(app, 'ask-empty');
  for (const q of ['How do we handle rate limiting?', 'And what about retries?', 'What is the region?']) {
    await app.getByRole('textbox', { name: 'Ask' }).fill(q);
    await app.keyboard.press('Enter');
    await expect(app.locator('.exchange .answer').last()).toHaveAttribute('aria-busy', 'false', {
      timeout: 30000,
    });
  }
  await shot(app, 'ask-3');
  await app.setViewportSize({ width: 900, height: 700 });
  await shot(app, 'ask-900');
  await app.getByRole('button', { name: '中文', exact: true }).click();
  await app.emulateMedia({ colorScheme: 'dark' });
  await shot(app, 'ask-900-zh-dark');
  await app.getByRole('button', { name: '连接', exact: true }).click();
  await shot(app, 'connections-900-zh-dark');
  await app.getByRole('button', { name: '设置', exact: true }).click();
  await shot(app, 'settings-900-zh-dark');
});
