import { addYuque, ask, expect, screenshot, syncAndWait, test, YUQUE_CARD } from './fixtures';

test.use({ locale: 'en-US' });

test('without a chat model the answer is extractive; clicking [1] highlights the source card with the quoted paragraph', async ({ app, backend }) => {
  await addYuque(app, backend);
  await syncAndWait(app, YUQUE_CARD);
  const marker = await ask(app, 'How do we handle rate limiting?');
  await expect(app.getByText('Extractive answer: quoted from your documents')).toBeVisible();
  await marker.click();
  const source = app.getByRole('article', { name: /^\[1\] / });
  await expect(source).toHaveAttribute('aria-current', 'true');
  await expect(source).toHaveClass(/highlighted/);
  await expect(source).toContainText('Notes on rate limiting 12');
  // The card shows the very paragraph the first quote was taken from.
  const quoted = (await app.locator('.answer-body blockquote').first().locator('p').first().innerText()).trim();
  expect(quoted.length).toBeGreaterThan(20);
  await expect(source.locator('blockquote')).toContainText(quoted.split('\n')[0]!.slice(0, 60));
  await screenshot(app, '11-chat-extractive');
  expect(backend.chatModel.requests).toHaveLength(0);
});

test('with a chat model set in Settings the streamed answer cites [1]; clicking it highlights the right paragraph', async ({ app, backend }) => {
  await addYuque(app, backend);
  await syncAndWait(app, YUQUE_CARD);
  await app.getByRole('button', { name: 'Settings', exact: true }).click();
  const chat = app.getByRole('group', { name: 'Chat model' });
  await chat.getByLabel('Provider').selectOption('custom');
  await chat.getByLabel('Base URL').fill(`${backend.chatModel.baseUrl}`);
  await chat.getByLabel('Model').fill(backend.chatModel.model);
  await chat.getByLabel('API key').fill(backend.chatModel.apiKey);
  await app.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(app.getByText('Settings saved')).toBeVisible();
  await screenshot(app, '12-settings-chat-model');
  await app.getByRole('button', { name: 'Dismiss' }).click();

  const marker = await ask(app, 'How do we handle rate limiting?');
  await expect(app.locator('.exchange .answer')).toHaveAttribute('aria-busy', 'false');
  await expect(app.getByText('Extractive answer')).toHaveCount(0);
  expect(backend.chatModel.requests.at(-1)?.authorization).toBe(`Bearer ${backend.chatModel.apiKey}`);
  // The fake model quotes the best sentence of a source and puts its [n] right after it.
  const answer = await app.locator('.answer-body').first().innerText();
  const citedSentence = answer.split('[1]')[0]!.trim().split('\n').pop()!.trim();
  expect(citedSentence.length).toBeGreaterThan(20);
  await marker.click();
  const source = app.getByRole('article', { name: /^\[1\] / });
  await expect(source).toHaveAttribute('aria-current', 'true');
  await expect(source).toHaveClass(/highlighted/);
  await expect(source.locator('blockquote')).toContainText(citedSentence);
  await screenshot(app, '13-chat-model-cited');
  // The key reached the model, never the page.
  expect(await app.content()).not.toContain(backend.chatModel.apiKey);
});
