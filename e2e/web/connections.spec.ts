import { BINARY_NOTE, notesFixtureCount } from '../support/notes-folder';
import {
  addFolder,
  addYuque,
  expect,
  expectProgressMoved,
  fillYuqueForm,
  recordCard,
  screenshot,
  searchFor,
  syncAndWait,
  test,
  YUQUE_CARD,
} from './fixtures';

test.use({ locale: 'en-US' });

test('a new user is led to add a local folder and syncs it', async ({ app, backend }) => {
  await expect(app.getByRole('heading', { name: 'Start with a local folder' })).toBeVisible();
  await screenshot(app, '01-first-run');

  await app.getByRole('button', { name: 'Add a local folder' }).click();
  await app.getByLabel('Folder path').fill(backend.notesDir);
  // A folder's local copy is all there is: no switch to turn it off, here or on its card.
  await expect(app.getByRole('checkbox', { name: 'Keep a local copy for offline search' })).toHaveCount(0);
  await app.getByRole('button', { name: 'Test connection' }).click();
  // The binary file has a text extension, so listing counts it; fetching refuses it.
  await expect(app.getByRole('status').filter({ hasText: 'is readable' })).toContainText(
    `${notesFixtureCount() + 1} files to index`,
  );
  await screenshot(app, '02-add-folder');
  await app.getByRole('button', { name: 'Add connection' }).click();

  const card = app.getByRole('article', { name: 'notes' });
  await expect(card.getByTestId('sync-status')).toHaveText('Not synced yet');
  await syncAndWait(app, 'notes');
  await expect(card.getByTestId('document-count')).toHaveText(String(notesFixtureCount()));
  await expect(card.getByTestId('chunk-count')).not.toHaveText('0');
  // The questions made from headings are each in one language: a Chinese heading is asked in Chinese.
  const questions = app.getByRole('group', { name: 'Questions to ask' }).getByRole('button');
  await expect(questions.first()).toBeVisible();
  const asked = await questions.allInnerTexts();
  const englishAboutChinese = (question: string) =>
    question.startsWith('What do my documents say') && /\p{Script=Han}/u.test(question);
  expect(asked.filter(englishAboutChinese)).toEqual([]);
  expect(asked.filter((question) => question.startsWith('文档里关于「'))).not.toEqual([]);
  // The last sync is said with its year, and no tile cuts what it says, even in a narrow window.
  await expect(card.locator('.facts')).toContainText(String(new Date().getFullYear()));
  await app.setViewportSize({ width: 900, height: 700 });
  const cut = await card
    .locator('.facts dd')
    .evaluateAll((tiles) =>
      tiles.filter((tile) => tile.scrollWidth > tile.clientWidth).map((tile) => tile.textContent),
    );
  expect(cut).toEqual([]);
  await screenshot(app, '03a-folder-card-900');
  await app.setViewportSize({ width: 1280, height: 820 });
  // The binary file is left out on purpose: counted by reason, and named with the reason.
  await expect(card.getByRole('list', { name: 'Left out of the index' })).toContainText(
    'Files with binary content: 1',
  );
  // Named once, inside its reason (not again as a failure).
  await card.getByText('Files with binary content: 1').click();
  await expect(card.getByText('1 document could not be indexed')).toHaveCount(0);
  await expect(
    card.getByText(`Skipped binary content in ${BINARY_NOTE} (NUL or control bytes).`),
  ).toBeVisible();
  await expect(card.getByRole('checkbox')).toHaveCount(0);
  await screenshot(app, '03-folder-synced');
});

test('Add tests first: a folder that does not exist is not added unless the user says "Add anyway"', async ({
  app,
  backend,
}) => {
  await app.getByRole('button', { name: 'Add a local folder' }).click();
  const missing = `${backend.notesDir}-missing`;
  await app.getByLabel('Folder path').fill(missing);
  await app.getByRole('button', { name: 'Add connection' }).click();
  const form = app.getByRole('form', { name: 'Add a connection' });
  await expect(form.locator('.test-result.failed')).toContainText(missing);
  await expect(form.getByRole('button', { name: 'Add anyway' })).toBeVisible();
  await expect(app.getByRole('article')).toHaveCount(0);
  await screenshot(app, '02b-add-folder-missing');
  // Fixed path: Add tests again, passes and adds.
  await app.getByLabel('Folder path').fill(backend.notesDir);
  await form.getByRole('button', { name: 'Add connection' }).click();
  await expect(app.getByRole('article', { name: 'notes' })).toBeVisible();
});

test('a Yuque connection added through the form syncs while the progress bar moves', async ({
  app,
  backend,
}) => {
  await addFolder(app, backend);
  await fillYuqueForm(app, backend);
  await expect(
    app
      .getByRole('form', { name: 'Add a connection' })
      .getByRole('checkbox', { name: 'Keep a local copy for offline search' }),
  ).toBeChecked();
  await app.getByRole('button', { name: 'Test connection' }).click();
  await expect(app.getByRole('status').filter({ hasText: 'Connected to Yuque' })).toBeVisible();
  await screenshot(app, '04-add-yuque');
  // The token went to the backend's secret store; the page keeps no copy once the form closes.
  await app.getByRole('button', { name: 'Add connection' }).click();
  const card = app.getByRole('article', { name: YUQUE_CARD });
  await expect(card.getByTestId('sync-status')).toHaveText('Not synced yet');
  // The card can appear (connections.changed) before add() answers and the form closes.
  await expect(app.getByRole('form', { name: 'Add a connection' })).toHaveCount(0);
  expect(await app.content()).not.toContain(backend.yuque.credentials.token);

  // Each document read takes a while, as over a real network: the sync lasts long enough to be seen.
  backend.yuque.control.inject(
    { kind: 'slow', delayMs: 300 },
    { path: /^\/api\/v2\/repos\/docs\/[^/]+$/, times: Infinity },
  );
  const recording = await recordCard(card);
  await card.getByRole('button', { name: 'Sync now' }).click();
  const total = await expectProgressMoved(recording, 3);
  // The sync may end before a loaded machine answers a read: the card's recorded states show it syncing.
  expect((await recording.read()).statuses).toContain('syncing');
  await screenshot(app, '05-yuque-syncing');

  await expect(card.getByTestId('sync-status')).toHaveText('Synced', { timeout: 30_000 });
  // 24 corpus documents, a Sheet and a Table are indexed; the Board has no text API: skipped at
  // listing, counted and named on the card, never a failure.
  const listed = backend.yuque.control.store.list().length + 2;
  expect(total).toBe(listed);
  await expect(card.getByTestId('document-count')).toHaveText(String(listed));
  await expect(card.getByTestId('chunk-count')).toHaveText(/^[1-9]\d*$/);
  await expect(card.getByTestId('skipped-note')).toHaveText('Skipped, no text to read: 1 board.');
  await expect(card.locator('.doc-errors')).toHaveCount(0);
  await screenshot(app, '06-yuque-synced');
});

test('a revoked Yuque token shows the auth error on the card while the old results still come back; a new token through Edit fixes it', async ({
  app,
  backend,
}) => {
  const card = await addYuque(app, backend);
  await syncAndWait(app, YUQUE_CARD);
  const documents = await card.getByTestId('document-count').innerText();

  backend.yuque.control.expireToken();
  await card.getByRole('button', { name: 'Sync now' }).click();
  await expect(card.getByTestId('sync-status')).toHaveText('Failed', { timeout: 20_000 });
  await expect(card.getByRole('alert')).toContainText('Yuque rejected the token');
  await expect(card.getByTestId('document-count')).toHaveText(documents);
  await screenshot(app, '07-yuque-auth-failed');

  await searchFor(app, 'rate limiting');
  const hit = app.getByRole('article', { name: 'Notes on rate limiting 12' }).first();
  await expect(hit).toBeVisible();
  await expect(hit.locator('.badge-platform')).toHaveText('Yuque');
  await screenshot(app, '08-search-after-auth-failure');

  // The user makes a new token on Yuque and pastes it into Edit: the index and its history stay.
  const newToken = backend.yuque.control.issueToken();
  await app.getByRole('button', { name: 'Connections', exact: true }).first().click();
  await card.getByRole('button', { name: 'Edit' }).click();
  const form = app.getByRole('form', { name: `Edit “${YUQUE_CARD}”` });
  await expect(form.getByLabel('API base URL')).toHaveValue(backend.yuque.baseUrl);
  const token = form.getByLabel('Personal or team token');
  await expect(token).toHaveValue('');
  await expect(token).toHaveAttribute('placeholder', 'Stored — leave empty to keep');
  await form.getByRole('button', { name: 'Test connection' }).click();
  await expect(form.getByRole('status')).toContainText('Yuque rejected the token');
  await token.fill(newToken);
  await form.getByRole('button', { name: 'Test connection' }).click();
  await expect(form.getByRole('status')).toContainText('Connected to Yuque');
  await screenshot(app, '08b-edit-yuque-token');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(form).toBeHidden();
  expect(await app.content()).not.toContain(newToken);
  // Saving a fix of a failed connection syncs it at once: the failure goes when that sync succeeds.
  await expect(card.getByTestId('sync-status')).toHaveText('Synced', { timeout: 30_000 });
  await expect(card.getByRole('alert')).toHaveCount(0);
  await expect(card.getByTestId('document-count')).toHaveText(documents);
  await screenshot(app, '08c-yuque-fixed-by-edit');
});
