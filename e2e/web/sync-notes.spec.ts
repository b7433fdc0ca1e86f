import { addYuque, expect, screenshot, syncAndWait, test, YUQUE_CARD } from './fixtures';

test.use({ locale: 'en-US' });

test('a sync the request limit stopped says calmly how many documents wait, and the next sync takes them', async ({
  app,
  backend,
}) => {
  const card = await addYuque(app, backend);
  // Yuque answers the first document read with 429 and no Retry-After: the hour's budget is spent.
  backend.yuque.control.inject({ kind: 'rate-limit' }, { path: /^\/api\/v2\/repos\/docs\/[^/]+$/ });
  await syncAndWait(app, YUQUE_CARD);
  const deferred = card.getByTestId('deferred-note');
  await expect(deferred).toHaveText(
    /^\d[\d,]* documents? waits? for the next sync: Yuque asked Cairn to stop for now \(its request limit or quota\)\. Nothing was lost\.$/,
  );
  // The fake's Board document has no text API: counted, named, not an error.
  await expect(card.getByTestId('skipped-note')).toHaveText('Skipped, no text to read: 1 board.');
  // A deferral is not a failure: no alert and no error summary on the card.
  await expect(card.getByRole('alert')).toHaveCount(0);
  await expect(card.locator('.doc-errors')).toHaveCount(0);
  await screenshot(app, '30-yuque-deferred');

  await app.getByRole('button', { name: '中文' }).click();
  await expect(deferred).toHaveText(
    /^\d[\d,]* 篇文档等待下次同步：语雀要求暂时停止（已达请求上限或额度），内容不会丢失。$/,
  );
  await expect(card.getByTestId('skipped-note')).toHaveText('已跳过（没有可读取的文字）：1 个画板。');
  await screenshot(app, '30b-yuque-deferred-zh');
  await app.getByRole('button', { name: 'EN', exact: true }).click();

  // The next hour: the rest lands, and the note goes.
  await syncAndWait(app, YUQUE_CARD);
  await expect(deferred).toHaveCount(0);
  const indexable = backend.yuque.control.store.list().length + 2; // + the Sheet and the Table documents
  await expect(card.getByTestId('document-count')).toHaveText(String(indexable));
});
