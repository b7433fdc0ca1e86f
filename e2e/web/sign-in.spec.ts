import type { Page } from '@playwright/test';
import type { BackendHost } from '../support/backend-host';
import { addFolder, expect, screenshot, searchFor, test } from './fixtures';

test.use({ locale: 'en-US' });

/** Fills the Add form for a direct-mode Feishu/Lark connection to the fake (the folder the first-run screen asks for comes first). */
async function fillSignInForm(
  app: Page,
  backend: BackendHost,
  platform: 'Feishu' | 'Lark',
  name: string,
): Promise<void> {
  await addFolder(app, backend);
  await app.getByRole('button', { name: 'Add connection' }).first().click();
  await app.locator('label.platform-tile', { hasText: platform }).click();
  await app.getByLabel('Name').fill(name);
  await app.getByLabel('API base URL').fill(backend.feishu.baseUrl);
  await app.getByLabel('App ID').fill(backend.feishu.credentials.appId);
  await app.getByLabel('App secret').fill(backend.feishu.credentials.appSecret);
  // The fake, unlike Feishu, accepts any loopback port: 0 lets the sign-in take a free one.
  await app.getByLabel('Sign-in port').fill('0');
  await app
    .getByRole('form', { name: 'Add a connection' })
    .getByRole('checkbox', { name: 'Keep a local copy for offline search' })
    .uncheck();
}

test('a Feishu connection added without a refresh token signs in through the browser, then searches Feishu live', async ({
  app,
  backend,
  context,
}) => {
  const { feishu } = backend;
  await fillSignInForm(app, backend, 'Feishu', 'Feishu wiki');
  await expect(
    app
      .getByRole('form', { name: 'Add a connection' })
      .getByText('Leave empty: after adding, use “Sign in” on the connection for search and My Library.'),
  ).toBeVisible();
  await app.getByRole('button', { name: 'Add connection' }).click();

  const card = app.getByRole('article', { name: 'Feishu wiki' });
  // The card says once what it cannot do yet, next to its Sign in button (no separate note).
  await expect(card.getByTestId('sign-in')).toContainText(
    'Feishu search and My Library need you to sign in with Feishu',
  );
  await expect(card.getByRole('note')).toHaveCount(0);
  // The fake shows a consent page with an Approve button, as Feishu does.
  feishu.control.setConsent('page');
  const popup = context.waitForEvent('page');
  await card.getByRole('button', { name: 'Sign in with Feishu' }).click();
  const consent = await popup;
  await expect(card.getByTestId('sign-in')).toContainText('Waiting for you to approve in the browser…');
  await screenshot(app, '30-feishu-sign-in-waiting');
  await consent.getByRole('link', { name: 'Approve / 授权' }).click();
  await expect(consent.getByText('Cairn is signed in. You can close this tab.')).toBeVisible();
  await expect(consent.getByText('Cairn 已登录，可以关闭此页。')).toBeVisible();
  await consent.close();

  await expect(card.getByTestId('sign-in')).toContainText('Signed in: search and My Library are on.');
  await expect(card.getByRole('note')).toHaveCount(0);
  await screenshot(app, '31-feishu-signed-in');

  await searchFor(app, '离线同步');
  const live = app.locator('article.hit').filter({ has: app.locator('.badge-live') });
  await expect(live.first()).toBeVisible();
  await expect(live.first().locator('.badge-platform')).toHaveText('Feishu');
  await expect(live.first().locator('.hit-title')).toContainText('离线同步');
  expect(await app.content()).not.toContain(feishu.control.latestRefreshToken);

  // A shared computer: signing out removes the user authorisation; the card offers Sign in again.
  await app.getByRole('button', { name: 'Connections', exact: true }).first().click();
  await card.getByRole('button', { name: 'Sign out' }).click();
  await expect(card.getByRole('button', { name: 'Sign in with Feishu' })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
});

test('cancelling a sign-in returns the card to Sign in', async ({ app, backend, context }) => {
  await fillSignInForm(app, backend, 'Lark', 'Lark wiki');
  await app.getByRole('button', { name: 'Add connection' }).click();
  const card = app.getByRole('article', { name: 'Lark wiki' });
  backend.feishu.control.setConsent('page');
  const popup = context.waitForEvent('page');
  await card.getByRole('button', { name: 'Sign in with Lark' }).click();
  await popup;
  await card.getByRole('button', { name: 'Cancel sign-in' }).click();
  await expect(card.getByRole('button', { name: 'Sign in with Lark' })).toBeVisible();
  await expect(card.getByRole('alert')).toHaveCount(0);
});

test('in Chinese: 登录飞书, 已登录 with 退出登录, and the sign-in scopes under 高级设置', async ({
  app,
  backend,
  context,
}) => {
  await fillSignInForm(app, backend, 'Feishu', '飞书知识库');
  await app.getByRole('button', { name: 'Add connection' }).click();
  await app.getByRole('button', { name: '中文' }).click();
  const card = app.getByRole('article', { name: '飞书知识库' });
  await expect(card.getByTestId('sign-in')).toContainText(
    '飞书的搜索和“我的文档库”需要先登录飞书；列出和读取文档只需应用凭证。',
  );
  await expect(card.getByRole('note')).toHaveCount(0);
  await screenshot(app, '32-zh-feishu-sign-in');

  const popup = context.waitForEvent('page');
  await card.getByRole('button', { name: '登录飞书' }).click();
  await (await popup).close();
  await expect(card.getByTestId('sign-in')).toContainText('已登录：搜索与我的文档库已开启。');
  await expect(card.getByRole('button', { name: '退出登录' })).toBeVisible();
  await screenshot(app, '33-zh-feishu-signed-in');

  await card.getByRole('button', { name: '编辑' }).click();
  const form = app.getByRole('form', { name: '编辑“飞书知识库”' });
  await form.getByText('高级设置').click();
  await expect(form.getByLabel('登录授权范围（可选）')).toHaveAttribute(
    'placeholder',
    'offline_access search:docs:read wiki:wiki:readonly docs:document.content:read docx:document:readonly sheets:spreadsheet:read bitable:app:readonly',
  );
  await expect(form.getByRole('checkbox', { name: '删除已保存的值' })).toBeVisible();
  await screenshot(app, '34-zh-feishu-edit-advanced');
});
