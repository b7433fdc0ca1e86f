/**
 * A link inside a previewed document opens in a new tab of this browser in the browser UI (#27),
 * not through the opener of the machine Cairn runs on.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addFolder, expect, openedTab, screenshot, searchFor, syncAndWait, test } from './fixtures';

test.use({ locale: 'en-US' });

test('a link in the preview opens in a browser tab', async ({ app, backend }) => {
  writeFileSync(
    join(backend.notesDir, 'vpn-client.md'),
    '# VPN 客户端\n\n按照[官方安装指南](https://vpn.example.com/install)安装客户端。\n',
  );
  await addFolder(app, backend);
  await syncAndWait(app, 'notes');
  await searchFor(app, '官方安装指南');
  await app.getByRole('article', { name: 'VPN 客户端' }).getByRole('button', { name: 'VPN 客户端' }).click();
  const preview = app.getByRole('dialog', { name: 'VPN 客户端' });
  const link = preview.getByRole('button', { name: '官方安装指南' });
  await expect(link).toBeVisible();
  await screenshot(app, 'preview-link-en-light');
  expect(await openedTab(app, () => link.click())).toBe('https://vpn.example.com/install');
  // The app itself stays where it was, with no error about the host's opener.
  await expect(preview).toBeVisible();
  await expect(app.getByRole('alert')).toHaveCount(0);
});
