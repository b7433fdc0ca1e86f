import type { Page } from '@playwright/test';
import {
  addFolder,
  addYuque,
  ask,
  expect,
  screenshot,
  syncAndWait,
  test,
  useFakeChatModel,
  YUQUE_CARD,
} from './fixtures';

test.use({ locale: 'en-US' });

test('without a chat model the answer is extractive; clicking [1] highlights the source card with the quoted paragraph', async ({
  app,
  backend,
}) => {
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
  const quoted = (
    await app.locator('.answer-body blockquote').first().locator('p').first().innerText()
  ).trim();
  expect(quoted.length).toBeGreaterThan(20);
  await expect(source.locator('blockquote')).toContainText(quoted.split('\n')[0]!.slice(0, 60));
  await screenshot(app, '11-chat-extractive');
  expect(backend.chatModel.requests).toHaveLength(0);
});

test('a source card quoting a Markdown table shows a table of cells, not pipes and dashes', async ({
  app,
  backend,
}) => {
  await addYuque(app, backend);
  await syncAndWait(app, YUQUE_CARD);
  await ask(app, 'rate limiting concurrency region setting value');
  const source = app.getByRole('article', { name: /^\[1\] / });
  const rows = source.locator('blockquote table tr');
  await expect(rows).toHaveCount(3);
  expect(await Promise.all((await rows.all()).map((row) => row.locator('th, td').allInnerTexts()))).toEqual([
    ['Setting', 'Value'],
    ['concurrency', expect.stringMatching(/^\d+$/)],
    ['region', 'us-west-1'],
  ]);
  await expect(source.locator('blockquote')).not.toContainText('|');
  await expect(source.locator('blockquote')).not.toContainText('---');
  await source.scrollIntoViewIfNeeded();
  await screenshot(app, '11b-chat-source-table');
});

test('with a chat model set in Settings the streamed answer cites [1]; clicking it highlights the right paragraph', async ({
  app,
  backend,
}) => {
  await addYuque(app, backend);
  await syncAndWait(app, YUQUE_CARD);
  await app.getByRole('button', { name: 'Settings', exact: true }).click();
  const chat = app.getByRole('group', { name: 'Chat model' });
  await chat.getByLabel('Provider').selectOption('custom');
  await chat.getByLabel('Base URL').fill(`${backend.chatModel.baseUrl}`);
  await chat.getByLabel('Model').fill(backend.chatModel.model);
  await chat.getByLabel('API key').fill('sk-wrong');
  await chat.getByRole('button', { name: 'Test', exact: true }).click();
  await expect(chat.locator('.test-result.failed')).toBeVisible();
  await chat.getByLabel('API key').fill(backend.chatModel.apiKey);
  await chat.getByRole('button', { name: 'Test', exact: true }).click();
  await expect(chat.locator('.test-result.ok')).toContainText(
    `The chat model ${backend.chatModel.model} answered`,
  );
  await chat.getByRole('button', { name: 'Save', exact: true }).click();
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

test('conversations survive a reload: listed newest first, reopened with their cited answers, continued, deleted', async ({
  app,
  backend,
}) => {
  await addFolder(app, backend);
  await syncAndWait(app, 'notes');
  await ask(app, '报销流程是什么？');
  await finishAnswer(app, 1);
  await app.getByRole('textbox', { name: 'Ask' }).fill('How do I set up the VPN?');
  await app.keyboard.press('Enter');
  await finishAnswer(app, 2);
  await app.getByRole('button', { name: 'New conversation' }).click();
  await ask(app, 'What goes into the release checklist?');
  await finishAnswer(app, 1);

  await app.reload();
  await app.getByRole('button', { name: 'Ask', exact: true }).first().click();
  const history = app.getByRole('region', { name: 'Conversations' });
  await expect(history.locator('.conversation-title')).toHaveText([
    'What goes into the release checklist?',
    '报销流程是什么？',
  ]);
  await expect(app.locator('.exchange')).toHaveCount(0);
  await history.getByRole('button', { name: /^报销流程是什么？/ }).click();
  await expect(app.locator('.exchange .question')).toHaveText([
    '报销流程是什么？',
    'How do I set up the VPN?',
  ]);
  const first = app.locator('.exchange').first();
  await expect(first.getByText('Extractive answer: quoted from your documents')).toBeVisible();
  await screenshot(app, '20-chat-history-opened');
  await first.getByRole('button', { name: '[1]', exact: true }).click();
  const source = first.getByRole('article', { name: /^\[1\] / });
  await expect(source).toHaveAttribute('aria-current', 'true');
  await expect(source).toHaveClass(/highlighted/);
  await expect(source.locator('.badge-platform')).toHaveText('Local folder');
  await expect(source.locator('blockquote')).toContainText('报销');
  await screenshot(app, '21-chat-history-cited');

  // A follow-up continues the opened conversation (no third conversation), which then moves to the top.
  await app.getByRole('textbox', { name: 'Ask' }).fill('报销需要发票吗？');
  await app.keyboard.press('Enter');
  await finishAnswer(app, 3);
  await expect(history.locator('.conversation-title')).toHaveText([
    '报销流程是什么？',
    'What goes into the release checklist?',
  ]);
  const stored = await backend.cairn.api.chat.conversations();
  expect(stored.ok && stored.value.length).toBe(2);

  await app.getByRole('button', { name: '中文' }).click();
  const zhHistory = app.getByRole('region', { name: '历史对话' });
  await expect(zhHistory.getByRole('button', { name: '新对话' })).toBeVisible();
  await zhHistory.getByRole('button', { name: '删除“What goes into the release checklist?”' }).click();
  await expect(zhHistory.getByRole('alertdialog', { name: '删除这段对话？' })).toBeVisible();
  await screenshot(app, '22-zh-chat-history-delete');
  await zhHistory.getByRole('button', { name: '确认删除' }).click();
  await expect(zhHistory.locator('.conversation-title')).toHaveText(['报销流程是什么？']);
  await app.reload();
  await app.getByRole('button', { name: '问答', exact: true }).click();
  await expect(app.getByRole('region', { name: '历史对话' }).locator('.conversation-title')).toHaveText([
    '报销流程是什么？',
  ]);
});

/** Waits until the panel shows `count` exchanges and the last one's answer has finished. */
async function finishAnswer(page: Page, count: number): Promise<void> {
  await expect(page.locator('.exchange')).toHaveCount(count);
  await expect(page.locator('.exchange .answer').last()).toHaveAttribute('aria-busy', 'false', {
    timeout: 20_000,
  });
}

test('follow-ups scroll into view and the streaming answer is followed until the reader scrolls away', async ({
  app,
  backend,
}) => {
  // A sync and three answers, one of them slowed down: more than the default minute on a loaded machine.
  test.setTimeout(180_000);
  await addYuque(app, backend);
  await syncAndWait(app, YUQUE_CARD);
  await useFakeChatModel(app, backend);
  await app.setViewportSize({ width: 900, height: 700 });
  await ask(app, 'How do we handle rate limiting?');
  await expect(app.locator('.exchange .answer').last()).toHaveAttribute('aria-busy', 'false');
  const view = app.locator('.view');
  const box = app.getByRole('textbox', { name: 'Ask' });

  // A slow stream: the answer grows for a few seconds, as a real model's does.
  backend.chatModel.chunkDelayMs = 60;
  await box.fill('And how do we handle error handling?');
  await app.keyboard.press('Enter');
  const second = app.locator('.exchange').nth(1);
  await expect(second.locator('.question')).toBeInViewport();
  await expect(second.locator('.cursor')).toBeVisible();
  // While it streams, the end of the answer (the cursor) stays on screen, above the ask box.
  const looks: string[] = [];
  for (let look = 0; look < 8; look++) {
    const seen = await view.evaluate((element) => {
      const cursor = element.querySelectorAll('.exchange')[1]?.querySelector('.cursor');
      if (!cursor) return 'done';
      const rect = cursor.getBoundingClientRect();
      const bottom = element.querySelector('.ask-form')!.getBoundingClientRect().top;
      return rect.top >= 0 && rect.bottom <= bottom ? 'in view' : `out of view (${rect.bottom} > ${bottom})`;
    });
    if (seen === 'done') break;
    looks.push(seen);
    await app.waitForTimeout(150);
  }
  expect(looks.length).toBeGreaterThan(0);
  expect(looks.filter((seen) => seen !== 'in view')).toEqual([]);
  await expect(second.locator('.answer')).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  const afterSecond = await view.evaluate((element) => element.scrollTop);
  expect(afterSecond).toBeGreaterThan(0);
  await screenshot(app, '13-chat-follow-up');

  // Scrolled up while the third answer streams: the view stays where the reader put it.
  await box.fill('What about backups?');
  await app.keyboard.press('Enter');
  const third = app.locator('.exchange').nth(2);
  await expect(third.locator('.question')).toBeInViewport();
  await view.evaluate((element) => element.scrollTo({ top: 0 }));
  await app.waitForTimeout(300);
  const held = await view.evaluate((element) => element.scrollTop);
  await expect(third.locator('.answer')).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  expect([held, await view.evaluate((element) => element.scrollTop)]).toEqual([0, 0]);
});
