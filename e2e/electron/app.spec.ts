import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';
import { findElectronBinary } from '../support/electron-binary';
import { notesFixtureCount, writeNotesFolder } from '../support/notes-folder';
import { screenshot } from '../web/fixtures';

const binary = findElectronBinary();
// The list reporter does not print skip reasons; say it once in the log as well.
if (!binary.ok) console.log(`[electron] skipped: ${binary.reason}`);

test('the desktop window opens without a tray, is locked down, and runs one sync', async () => {
  test.skip(!binary.ok, binary.ok ? '' : binary.reason);
  if (!binary.ok) return;
  const scratch = mkdtempSync(join(tmpdir(), 'cairn-electron-'));
  const dataDir = join(scratch, 'data');
  const notesDir = writeNotesFolder(join(scratch, 'notes'));
  const app = await electron.launch({
    executablePath: binary.path,
    // --no-sandbox: CI containers run as root, where Chromium's own sandbox cannot start.
    args: ['.', '--no-tray', '--no-sandbox'],
    cwd: process.cwd(),
    // The real core on a fresh data directory; no CAIRN_* settings leak in from the machine.
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('CAIRN_'))),
      CAIRN_DATA_DIR: dataDir,
    },
  });
  try {
    const window = await app.firstWindow();
    await expect(window).toHaveTitle('Cairn');
    expect(
      await window.evaluate(() => ({
        require: typeof (globalThis as { require?: unknown }).require,
        api: typeof (globalThis as { api?: unknown }).api,
      })),
    ).toEqual({ require: 'undefined', api: 'object' });
    await window.getByRole('button', { name: 'Add a local folder' }).click();
    await window.getByLabel('Folder path').fill(notesDir);
    await window.getByRole('button', { name: 'Add connection' }).click();
    const card = window.getByRole('article', { name: 'notes' });
    await card.getByRole('button', { name: 'Sync now' }).click();
    await expect(card.getByTestId('sync-status')).toHaveText('Synced', { timeout: 30_000 });
    await expect(card.getByTestId('document-count')).toHaveText(String(notesFixtureCount()));
    await screenshot(window, '20-electron-synced');
  } finally {
    await app.close();
    rmSync(scratch, { recursive: true, force: true });
  }
});
