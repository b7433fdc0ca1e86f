import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Locator, type Page, type Request } from '@playwright/test';
import { startBackendHost, type BackendHost } from '../support/backend-host';

export const SCREENSHOT_DIR = join(process.cwd(), 'e2e', 'screenshots');

/**
 * Each test gets its own backend (real core on a fresh data dir, fresh fakes) and a page already
 * on the app. After the test, no secret the backend knows may appear in any log line core wrote.
 */
export const test = base.extend<{ watchFolders: boolean; backend: BackendHost; app: Page }>({
  watchFolders: [false, { option: true }],
  backend: async ({ watchFolders }, use) => {
    const backend = await startBackendHost({ watchFolders });
    try {
      await use(backend);
      const leaked = backend
        .secrets()
        .filter((secret) => backend.logLines.some((line) => line.includes(secret)));
      expect(leaked, 'secrets written to the log').toEqual([]);
    } finally {
      await backend.close();
    }
  },
  app: async ({ page, backend }, use) => {
    await page.goto(backend.url);
    await expect(page.getByRole('navigation', { name: 'Cairn' })).toBeVisible();
    await use(page);
  },
});

export { expect };

/**
 * Whether a request comes from `page`. A new tab's first navigation can be issued before its frame
 * exists, and Playwright then throws from request.frame(): such a request is not this page's.
 */
function inPage(request: Request, page: Page): boolean {
  try {
    return request.frame().page() === page;
  } catch {
    return false;
  }
}

/**
 * Runs `action` (a click on "Open original") and returns the address the new tab it opened went to:
 * in the browser host a web link opens in a new tab. Then closes that tab (nothing answers offline).
 */
export async function openedTab(page: Page, action: () => Promise<void>): Promise<string> {
  const navigation = page.context().waitForEvent('request', {
    predicate: (request) => request.isNavigationRequest() && !inPage(request, page),
  });
  await action();
  const url = (await navigation).url();
  for (const other of page.context().pages()) if (other !== page) await other.close();
  return url;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: false });
}

/** What a card showed while it was recorded: every status and every value of its progress bar. */
export interface CardLog {
  /** Each status the card took, in order (the article's `status-*` class: syncing, synced, failed…). */
  statuses: string[];
  /** Every value the progress bar showed (aria-valuenow), and the largest total (aria-valuemax). */
  values: number[];
  total: number;
}

export interface CardRecording {
  read(): Promise<CardLog>;
}

/**
 * Records in the page, from now on, every state a connection card renders: a MutationObserver sees
 * each DOM change, with the value it replaced, so no status or progress value goes unseen however
 * slowly the test polls (a loaded machine answered Playwright's reads too late to see any).
 */
export async function recordCard(card: Locator): Promise<CardRecording> {
  const id = await card.getAttribute('data-connection-id');
  if (!id) throw new Error('not a connection card');
  const page = card.page();
  await page.evaluate((connectionId) => {
    const page = globalThis as unknown as InPage;
    const log: CardLog = { statuses: [], values: [], total: 0 };
    (page.cardLogs ??= {})[connectionId] = log;
    const value = (text: string | null) => {
      if (text !== null && text !== '') log.values.push(Number(text));
    };
    const read = () => {
      const article = page.document.querySelector(
        `article[data-connection-id="${page.CSS.escape(connectionId)}"]`,
      );
      const status = /\bstatus-(\w+)/.exec(article?.className ?? '')?.[1];
      if (status && log.statuses.at(-1) !== status) log.statuses.push(status);
      const bar = article?.querySelector('[role="progressbar"]');
      if (!bar) return;
      value(bar.getAttribute('aria-valuenow'));
      log.total = Math.max(log.total, Number(bar.getAttribute('aria-valuemax') ?? 0));
    };
    read();
    new page.MutationObserver((records) => {
      for (const record of records)
        if (record.attributeName === 'aria-valuenow' && record.oldValue !== null) value(record.oldValue);
      read();
    }).observe(page.document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeOldValue: true,
      attributeFilter: ['class', 'aria-valuenow', 'aria-valuemax'],
    });
  }, id);
  return {
    read: () =>
      page.evaluate((connectionId) => (globalThis as unknown as InPage).cardLogs![connectionId]!, id),
  };
}

/** The little of the page's DOM `recordCard` uses (e2e code is typed for Node, without the DOM library). */
interface InPageElement {
  className: string;
  querySelector(selector: string): InPageElement | null;
  getAttribute(name: string): string | null;
}
interface InPage {
  document: { body: unknown; querySelector(selector: string): InPageElement | null };
  CSS: { escape(text: string): string };
  MutationObserver: new (
    callback: (records: Array<{ attributeName: string | null; oldValue: string | null }>) => void,
  ) => { observe(target: unknown, options: object): void };
  cardLogs?: Record<string, CardLog>;
}

/** Progress values strictly between 0 and the total: progress that really moved. */
function movedValues(log: CardLog): number {
  return new Set(log.values.filter((value) => value > 0 && value < log.total)).size;
}

/**
 * Waits until a card recorded with `recordCard` (before its sync began) has shown at least `atLeast`
 * distinct progress values strictly between 0 and the total, and returns the total it showed.
 */
export async function expectProgressMoved(recording: CardRecording, atLeast: number): Promise<number> {
  await expect
    .poll(async () => movedValues(await recording.read()), { timeout: 30_000 })
    .toBeGreaterThanOrEqual(atLeast);
  return (await recording.read()).total;
}

export const YUQUE_CARD = 'Team handbook';

/** Adds the backend's notes folder through the form and waits for its card ("notes"). */
export async function addFolder(page: Page, backend: BackendHost): Promise<Locator> {
  await page.getByRole('button', { name: 'Add a local folder' }).first().click();
  await page.getByLabel('Folder path').fill(backend.notesDir);
  await page.getByRole('button', { name: 'Add connection' }).click();
  const card = page.getByRole('article', { name: 'notes' });
  await expect(card).toBeVisible();
  return card;
}

/** Opens the Add dialog on the Yuque tile and fills in the fake's base URL and token. */
export async function fillYuqueForm(
  page: Page,
  backend: BackendHost,
  token = backend.yuque.credentials.token,
): Promise<void> {
  // With no connection yet, the first-run screen offers only the folder form; its tiles switch platforms.
  await page
    .getByRole('button', { name: /^(Add connection|Add a local folder)$/ })
    .first()
    .click();
  await page.locator('label.platform-tile', { hasText: 'Yuque' }).click();
  await expect(page.getByRole('radio', { name: 'Yuque' })).toBeChecked();
  await page.getByLabel('Name').fill(YUQUE_CARD);
  await page.getByLabel('API base URL').fill(backend.yuque.baseUrl);
  await page.getByLabel('Personal or team token').fill(token);
}

/** Opens the Add dialog on a platform's tile and fills its fields by their labels. */
export async function fillConnectionForm(
  page: Page,
  platform: string,
  name: string,
  fields: Record<string, string>,
): Promise<void> {
  await page
    .getByRole('button', { name: /^(Add connection|Add a local folder)$/ })
    .first()
    .click();
  await page.locator('label.platform-tile', { hasText: platform }).click();
  await page.getByLabel('Name').fill(name);
  for (const [label, value] of Object.entries(fields)) await page.getByLabel(label).fill(value);
}

/** Sets the fake chat model as a custom provider in Settings and closes the saved notice. */
export async function useFakeChatModel(page: Page, backend: BackendHost): Promise<void> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const chat = page.getByRole('group', { name: 'Chat model' });
  await chat.getByLabel('Provider').selectOption('custom');
  await chat.getByLabel('Base URL').fill(backend.chatModel.baseUrl);
  await chat.getByLabel('Model').fill(backend.chatModel.model);
  await chat.getByLabel('API key').fill(backend.chatModel.apiKey);
  await chat.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
  await page.getByRole('button', { name: 'Dismiss' }).click();
}

/** Adds the Yuque fake as a RAG connection through the form and waits for its card. */
export async function addYuque(page: Page, backend: BackendHost): Promise<Locator> {
  await fillYuqueForm(page, backend);
  await page.getByRole('button', { name: 'Add connection' }).click();
  const card = page.getByRole('article', { name: YUQUE_CARD });
  await expect(card).toBeVisible();
  return card;
}

/**
 * Clicks "Sync now" and waits until that sync ran and ended "Synced". A card that already said
 * "Synced" says it before the new sync starts too, so the card is recorded and the sync must be seen.
 */
export async function syncAndWait(page: Page, cardName: string): Promise<Locator> {
  const card = page.getByRole('article', { name: cardName });
  const recording = await recordCard(card);
  await card.getByRole('button', { name: 'Sync now' }).click();
  await expect
    .poll(async () => (await recording.read()).statuses.includes('syncing'), { timeout: 30_000 })
    .toBe(true);
  await expect(card.getByTestId('sync-status')).toHaveText('Synced', { timeout: 30_000 });
  return card;
}

/** Focuses search with the keyboard shortcut and types a query (replacing any earlier one). */
export async function searchFor(page: Page, query: string): Promise<void> {
  await page.keyboard.press('Control+k');
  await expect(page.getByRole('searchbox')).toBeFocused();
  await page.getByRole('searchbox').fill(query);
}

/** Asks a question on the Ask page and waits for the first [1] marker. */
export async function ask(
  page: Page,
  question: string,
  labels = { tab: 'Ask', box: 'Ask' },
): Promise<Locator> {
  await page.getByRole('button', { name: labels.tab, exact: true }).first().click();
  await page.getByRole('textbox', { name: labels.box }).fill(question);
  await page.keyboard.press('Enter');
  const marker = page.getByRole('button', { name: '[1]', exact: true }).first();
  await expect(marker).toBeVisible({ timeout: 20_000 });
  return marker;
}

/** Serious and critical axe findings (WCAG 2.1 A/AA rules), one line each, for a readable failure. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(' '))
          .join(' | ')}`,
    );
}

/** The four looks a changed view is checked and photographed in: both languages, both themes. */
export const LOOKS = [
  { language: 'en', theme: 'light' },
  { language: 'zh', theme: 'dark' },
  { language: 'en', theme: 'dark' },
  { language: 'zh', theme: 'light' },
] as const;
