import type { Page } from '@playwright/test';
import type { BackendHost } from '../support/backend-host';
import {
  ask,
  expect,
  expectProgressMoved,
  fillConnectionForm,
  recordCard,
  screenshot,
  searchFor,
  test,
  useFakeChatModel,
  openedTab,
} from './fixtures';

test.use({ locale: 'en-US' });

const CARD = 'DingTalk wiki';
const STREAM_OPTION = /^Receive full text over DingTalk Stream/;
/** In the fake's corpus this command appears in the code blocks of the "Deployment pipeline" documents, never in a title. */
const BODY_ONLY_TERM = 'kubectl';

/** Fills the Add form for the DingTalk fake, with "Receive full text over DingTalk Stream" checked. */
async function fillDingTalkForm(page: Page, backend: BackendHost): Promise<void> {
  const { dingtalk } = backend;
  await fillConnectionForm(page, 'DingTalk', CARD, {
    'API base URL': dingtalk.baseUrl,
    'App key': dingtalk.credentials.appKey!,
    'App secret': dingtalk.credentials.appSecret!,
    'Your unionId': dingtalk.credentials.operatorId!,
  });
  const form = page.getByRole('form', { name: 'Add a connection' });
  await form.getByRole('checkbox', { name: STREAM_OPTION }).check();
  await expect(form.getByRole('checkbox', { name: 'Keep a local copy for offline search' })).toBeChecked();
}

function exportRequests(backend: BackendHost): string[] {
  return backend.dingtalk.control.requests.filter((request) =>
    /^GET \/v2\.0\/doc\/query\/[^/]+\/contents$/.test(request),
  );
}

test('DingTalk over Stream: Test connection exports a document over the socket, Sync indexes full text, a term only in bodies finds it, a cited answer opens its source', async ({
  app,
  backend,
}) => {
  const { dingtalk } = backend;
  const documents = dingtalk.control.documents();
  expect(documents.some((document) => document.markdown.includes(BODY_ONLY_TERM))).toBe(true);
  expect(documents.some((document) => document.title.includes(BODY_ONLY_TERM))).toBe(false);
  // The blocks API refuses every document here, so each one's full text can only come as an export event
  // over the socket; each event comes a while after its request, so the sync's progress is visible.
  for (const document of documents) dingtalk.control.refuseBlocks(document.key);
  dingtalk.control.exportDelayMs = 700;

  await fillDingTalkForm(app, backend);
  await app.getByRole('button', { name: 'Test connection' }).click();
  const tested = app.getByRole('status').filter({ hasText: 'Connected to DingTalk' });
  await expect(tested).toContainText('full text arrives over DingTalk Stream', { timeout: 15_000 });
  // The test really went through the Stream socket: one connection, one export requested, its event acked SUCCESS.
  expect(dingtalk.control.stream.connectionsAccepted()).toBe(1);
  expect(exportRequests(backend)).toHaveLength(1);
  expect(dingtalk.control.stream.acks.filter((ack) => ack.status === 'SUCCESS')).toHaveLength(1);
  await tested.scrollIntoViewIfNeeded();
  await screenshot(app, '23-dingtalk-stream-test');
  await app.getByRole('button', { name: 'Add connection' }).click();

  const card = app.getByRole('article', { name: CARD });
  await expect(card.getByTestId('sync-status')).toHaveText('Not synced yet');
  await expect(card).toContainText(
    'full text comes from DingTalk’s document blocks API, and over DingTalk Stream for documents it cannot read',
  );
  const recording = await recordCard(card);
  await card.getByRole('button', { name: 'Sync now' }).click();
  const total = await expectProgressMoved(recording, 1);
  // The sync may end before a loaded machine answers a read: the card's recorded states show it syncing.
  expect((await recording.read()).statuses).toContain('syncing');
  await screenshot(app, '24-dingtalk-stream-syncing');
  await expect(card.getByTestId('sync-status')).toHaveText('Synced', { timeout: 30_000 });
  expect(total).toBe(documents.length);
  await expect(card.getByTestId('document-count')).toHaveText(String(documents.length));
  await expect(card.getByTestId('chunk-count')).toHaveText(/^[1-9]\d*$/);
  // Every document's Markdown came as an export event over the socket: the probe's one, then one per document.
  expect(exportRequests(backend)).toHaveLength(documents.length + 1);
  expect(dingtalk.control.stream.acks.filter((ack) => ack.status === 'SUCCESS')).toHaveLength(
    documents.length + 1,
  );
  await screenshot(app, '25-dingtalk-stream-synced');

  // Only the index can know this term: titles do not carry it, and the hit is not a live one.
  await searchFor(app, BODY_ONLY_TERM);
  const hit = app.locator('article.hit').first();
  await expect(hit).toBeVisible();
  await expect(hit.locator('.badge-platform')).toHaveText('DingTalk');
  await expect(hit.locator('.badge-live')).toHaveCount(0);
  await expect(hit.locator('.hit-title')).not.toContainText(BODY_ONLY_TERM);
  await expect(hit.locator('mark', { hasText: BODY_ONLY_TERM }).first()).toBeVisible();
  const title = (await hit.locator('.hit-title').innerText()).trim();
  const source = documents.find((document) => document.title === title);
  expect(source?.markdown).toContain(BODY_ONLY_TERM);
  await expect(hit.locator('.badge-kb')).toHaveText(source!.knowledgeBase);
  await screenshot(app, '26-dingtalk-body-search');

  await useFakeChatModel(app, backend);
  const marker = await ask(app, 'Which kubectl command checks the rollout status of the deployment?');
  await expect(app.locator('.exchange .answer')).toHaveAttribute('aria-busy', 'false', { timeout: 20_000 });
  await expect(app.getByText('Extractive answer')).toHaveCount(0);
  await marker.click();
  const sourceCard = app.getByRole('article', { name: /^\[1\] / });
  await expect(sourceCard).toHaveAttribute('aria-current', 'true');
  await expect(sourceCard.locator('.badge-platform')).toHaveText('DingTalk');
  const citedTitle = (await sourceCard.locator('.source-title').innerText()).trim();
  const cited = documents.find((document) => document.title === citedTitle);
  expect(cited, 'the cited card names a DingTalk document').toBeDefined();
  await expect(sourceCard.locator('.badge-kb')).toHaveText(cited!.knowledgeBase);
  await expect(sourceCard.locator('blockquote')).toContainText(BODY_ONLY_TERM);
  await screenshot(app, '27-dingtalk-cited-answer');
  expect(await openedTab(app, () => sourceCard.getByRole('button', { name: /Open original/ }).click())).toBe(
    cited!.url,
  );
});

test('DingTalk over Stream without the export event subscription: Test connection says what to subscribe, and Stream off still connects', async ({
  app,
  backend,
}) => {
  backend.dingtalk.control.stream.subscribed = false;
  await fillDingTalkForm(app, backend);
  await app.getByRole('button', { name: 'Test connection' }).click();
  const failed = app.getByRole('status').filter({ hasText: '✗' });
  // The probe waits 8 s for the export event before it gives up.
  await expect(failed).toContainText(
    'Connected to DingTalk and its Stream gateway, but no document export event arrived within 8 s',
    { timeout: 20_000 },
  );
  await expect(failed).toContainText('subscribe to the document export event (doc_content_export_result)');
  // The socket opened and the export was requested: only the subscription was missing.
  expect(backend.dingtalk.control.stream.connectionsAccepted()).toBe(1);
  expect(exportRequests(backend)).toHaveLength(1);
  expect(backend.dingtalk.control.stream.acks).toHaveLength(0);
  await failed.scrollIntoViewIfNeeded();
  await screenshot(app, '28-dingtalk-stream-not-subscribed');

  // Nothing typed is lost: turning Stream off and testing again connects, with full text from the blocks API.
  const form = app.getByRole('form', { name: 'Add a connection' });
  await form.getByRole('checkbox', { name: STREAM_OPTION }).uncheck();
  await app.getByRole('button', { name: 'Test connection' }).click();
  await expect(app.getByRole('status').filter({ hasText: 'Connected to DingTalk' })).toContainText(
    'Full text through the document blocks API',
  );
});
