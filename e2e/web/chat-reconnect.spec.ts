import type { Locator, Page } from '@playwright/test';
import type { BackendHost } from '../support/backend-host';
import { startBreakableProxy, type BreakableProxy } from '../support/breakable-proxy';
import {
  addYuque,
  expect,
  screenshot,
  syncAndWait,
  test as base,
  useFakeChatModel,
  YUQUE_CARD,
} from './fixtures';

/** The page talks to the host through a proxy whose event streams the test can cut. */
const test = base.extend<{ link: BreakableProxy; app: Page }>({
  link: async ({ backend }, use) => {
    const proxy = await startBreakableProxy(backend.url);
    try {
      await use(proxy);
    } finally {
      await proxy.close();
    }
  },
  app: async ({ page, link }, use) => {
    await page.goto(link.url);
    await expect(page.getByRole('navigation', { name: 'Cairn' })).toBeVisible();
    await use(page);
  },
});

test.use({ locale: 'en-US' });

/** The fake model quotes a sentence from each of three sources: an answer of some 35 streamed pieces. */
const QUESTION = 'How do we handle rate limiting?';

/** Indexes the Yuque fake, sets the fake chat model to stream slowly, asks, and waits for the first streamed text. */
async function askSlowly(app: Page, backend: BackendHost, chunkDelayMs: number): Promise<Locator> {
  await addYuque(app, backend);
  await syncAndWait(app, YUQUE_CARD);
  await useFakeChatModel(app, backend);
  backend.chatModel.chunkDelayMs = chunkDelayMs;
  await app.getByRole('button', { name: 'Ask', exact: true }).first().click();
  await app.getByRole('textbox', { name: 'Ask' }).fill(QUESTION);
  await app.keyboard.press('Enter');
  const answer = app.locator('.exchange .answer').last();
  await expect(answer.locator('.answer-body')).not.toHaveText('', { timeout: 20_000 });
  await expect(answer).toHaveAttribute('aria-busy', 'true');
  return answer;
}

/** The answer core stored, once it is finished (null before). */
async function storedAnswerText(backend: BackendHost): Promise<string | null> {
  const conversations = await backend.cairn.api.chat.conversations();
  if (!conversations.ok || conversations.value.length === 0) return null;
  const messages = await backend.cairn.api.chat.messages({ conversationId: conversations.value[0]!.id });
  return messages.ok ? (messages.value.at(-1)?.answer?.text ?? null) : null;
}

const normalised = (text: string) => text.replace(/\s+/g, ' ').trim();

test('an answer that finishes while the event stream is down is shown whole, cited, when the stream is back', async ({
  app,
  backend,
  link,
}) => {
  const answer = await askSlowly(app, backend, 60);
  expect(link.cut()).toBe(1);
  // Core goes on: the rest of the tokens and chat.done are sent while the page cannot hear them.
  await expect.poll(() => storedAnswerText(backend), { timeout: 20_000 }).not.toBeNull();
  const stored = (await storedAnswerText(backend))!;
  expect(normalised(await answer.locator('.answer-body').innerText()).length).toBeLessThan(
    normalised(stored).length,
  );
  await expect(answer).toHaveAttribute('aria-busy', 'true');

  link.restore();
  await expect.poll(() => link.eventStreamsOpened(), { timeout: 10_000 }).toBe(2);
  await expect(answer).toHaveAttribute('aria-busy', 'false');
  const exchange = app.locator('.exchange').last();
  // Plain sentences with [n] markers: the page shows the stored text as it is.
  await expect(exchange.locator('.answer-body')).toHaveText(normalised(stored));
  const marker = exchange.getByRole('button', { name: '[1]', exact: true }).first();
  await marker.click();
  await expect(exchange.getByRole('article', { name: /^\[1\] / })).toHaveAttribute('aria-current', 'true');
  await screenshot(app, '29-chat-answer-after-reconnect');
});

test('an answer still streaming when the event stream comes back goes on from the text core streamed, with no gap', async ({
  app,
  backend,
  link,
}) => {
  const answer = await askSlowly(app, backend, 150);
  expect(link.cut()).toBe(1);
  // Tokens sent now are lost to the page; the answer is far from finished (150 ms a piece).
  await app.waitForTimeout(1200);
  expect(await storedAnswerText(backend)).toBeNull();
  const shownWhenRestored = normalised(await answer.locator('.answer-body').innerText());
  link.restore();

  // From the reconnect to the end, every text shown must be the start of the final answer: no hole, no repeat.
  const samples: string[] = [];
  await expect
    .poll(
      async () => {
        samples.push(normalised(await answer.locator('.answer-body').innerText()));
        return answer.getAttribute('aria-busy');
      },
      { timeout: 30_000, intervals: [100] },
    )
    .toBe('false');
  expect(link.eventStreamsOpened()).toBe(2);
  const final = normalised(await answer.locator('.answer-body').innerText());
  const stored = (await storedAnswerText(backend))!;
  expect(final).toBe(normalised(stored));
  // Streamed [n] markers render like the final ones, so every streamed text is a start of the final one.
  const misplaced = samples.filter((sample) => !final.startsWith(sample));
  expect(misplaced, 'texts shown while streaming that are not a start of the final answer').toEqual([]);
  // It went on streaming after the reconnect (texts between the one at the break and the final one), not only jumped to the end.
  expect(
    samples.filter((sample) => sample.length > shownWhenRestored.length && sample.length < final.length)
      .length,
  ).toBeGreaterThan(1);
});
