/**
 * A 900×700 window (#27, Also fix): the sidebar folds to its icons and the Ask page hides its list
 * of conversations, so the conversation gets the width. Both toggles are reached with the keyboard,
 * keep their names for screen readers, and are remembered across a reload; each look (en/zh,
 * light/dark) is axe clean, with a screenshot.
 */
import type { Page } from '@playwright/test';
import { addFolder, ask, expect, LOOKS, screenshot, seriousViolations, syncAndWait, test } from './fixtures';

test.use({ locale: 'en-US', viewport: { width: 900, height: 700 } });

const LABELS = {
  en: {
    collapse: 'Collapse the sidebar',
    expand: 'Expand the sidebar',
    hide: 'Hide the conversations',
    show: 'Show the conversations',
    ask: 'Ask',
    history: 'Conversations',
    new: 'New conversation',
  },
  zh: {
    collapse: '收起侧边栏',
    expand: '展开侧边栏',
    hide: '隐藏历史对话',
    show: '显示历史对话',
    ask: '问答',
    history: '历史对话',
    new: '新对话',
  },
} as const;

async function widthOf(page: Page, selector: string): Promise<number> {
  return (await page.locator(selector).boundingBox())?.width ?? 0;
}

/** Presses Tab until `target` has the focus (the toggles must be reachable without a mouse). */
async function tabTo(page: Page, target: ReturnType<Page['getByRole']>): Promise<void> {
  for (let press = 0; press < 40; press++) {
    if (await target.evaluate((element) => element === element.ownerDocument.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

test('at 900×700 the sidebar and the conversation list fold away from the keyboard, stay folded after a reload, and pass axe in every look', async ({
  app,
  backend,
}) => {
  // A sync, an answer and four looks each with a reload and two axe runs.
  test.setTimeout(300_000);
  await addFolder(app, backend);
  await syncAndWait(app, 'notes');
  await ask(app, '报销流程是什么？');
  const nav = app.getByRole('navigation', { name: 'Cairn' });

  for (const look of LOOKS) {
    const name = `${look.language}-${look.theme}`;
    const label = LABELS[look.language];
    await app.emulateMedia({ colorScheme: look.theme });
    await app.getByRole('button', { name: look.language === 'zh' ? '中文' : 'EN', exact: true }).click();
    await expect(app.locator('html')).toHaveAttribute('lang', look.language === 'zh' ? 'zh-CN' : 'en');
    await nav.getByRole('button', { name: label.ask, exact: true }).click();
    await expect(app.getByRole('region', { name: label.history })).toBeVisible();
    // The conversation asked above, open (a reload starts a new one).
    await app.locator('.conversation-open').first().click();
    await expect(app.locator('.exchange .answer')).toHaveAttribute('aria-busy', 'false');
    const paneBefore = await widthOf(app, '.chat-pane');
    await screenshot(app, `narrow-${name}-open`);

    // Folded with the keyboard: Tab to the toggle, Enter.
    const collapse = nav.getByRole('button', { name: label.collapse });
    await tabTo(app, collapse);
    await app.keyboard.press('Enter');
    const expand = nav.getByRole('button', { name: label.expand });
    await expect(expand).toBeFocused();
    await expect(expand).toHaveAttribute('aria-expanded', 'false');
    expect(await widthOf(app, '.sidebar')).toBeLessThan(80);
    // The icons keep their names: every view is still a named button.
    await expect(nav.getByRole('button', { name: label.ask, exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );

    const hide = app.getByRole('button', { name: label.hide });
    await tabTo(app, hide);
    await app.keyboard.press('Enter');
    await expect(app.getByRole('region', { name: label.history })).toBeHidden();
    await expect(app.getByRole('button', { name: label.show })).toBeFocused();
    // A new conversation is still one click away, from the header.
    await expect(
      app.locator('.chat-pane .view-header').getByRole('button', { name: label.new }),
    ).toBeEnabled();
    const paneFolded = await widthOf(app, '.chat-pane');
    // Sidebar (216 → 64) and list (236 + gap) give their width to the conversation.
    expect(paneFolded).toBeGreaterThan(paneBefore + 300);
    expect(await seriousViolations(app), `axe (${name}, folded)`).toEqual([]);
    await screenshot(app, `narrow-${name}-folded`);

    // Remembered: a reload opens folded.
    await app.reload();
    await expect(nav.getByRole('button', { name: label.expand })).toHaveAttribute('aria-expanded', 'false');
    await nav.getByRole('button', { name: label.ask, exact: true }).click();
    await expect(app.getByRole('button', { name: label.show })).toHaveAttribute('aria-expanded', 'false');
    await expect(app.getByRole('region', { name: label.history })).toBeHidden();

    // And unfolded again the same way.
    await app.getByRole('button', { name: label.show }).click();
    await nav.getByRole('button', { name: label.expand }).click();
    await expect(app.getByRole('region', { name: label.history })).toBeVisible();
    expect(await widthOf(app, '.sidebar')).toBeGreaterThan(200);
    expect(await seriousViolations(app), `axe (${name}, open)`).toEqual([]);
  }
});
