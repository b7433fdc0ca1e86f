import { addFolder, expect, screenshot, searchFor, test } from './fixtures';

test.use({ locale: 'en-US' });

test('a Feishu connection added without a refresh token signs in through the browser, then searches Feishu live', async ({ app, backend, context }) => {
  const { feishu } = backend;
  await addFolder(app, backend);
  await app.getByRole('button', { name: 'Add connection' }).first().click();
  await app.locator('label.platform-tile', { hasText: 'Feishu' }).click();
  const form = app.getByRole('form', { name: 'Add a connection' });
  await expect(form.getByText('Leave empty: after adding, use “Sign in” on the connection for search and My Library.')).toBeVisible();
  await app.getByLabel('Name').fill('Feishu wiki');
  await app.getByLabel('API base URL').fill(feishu.baseUrl);
  await app.getByLabel('App ID').fill(feishu.credentials.appId);
  await app.getByLabel('App secret').fill(feishu.credentials.appSecret);
  // The fake, unlike Feishu, accepts any loopback port: 0 lets the sign-in take a free one.
  await app.getByLabel('Sign-in port').fill('0');
  await form.getByRole('checkbox', { name: 'Enable RAG indexing' }).uncheck();
  await app.getByRole('button', { name: 'Add connection' }).click();

  const card = app.getByRole('article', { name: 'Feishu wiki' });
  await expect(card.getByRole('note')).toContainText('search and My Library need you to sign in with Feishu');
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
  const { feishu } = backend;
  await addFolder(app, backend);
  await app.getByRole('button', { name: 'Add connection' }).first().click();
  await app.locator('label.platform-tile', { hasText: 'Lark' }).click();
  await app.getByLabel('Name').fill('Lark wiki');
  await app.getByLabel('API base URL').fill(feishu.baseUrl);
  await app.getByLabel('App ID').fill(feishu.credentials.appId);
  await app.getByLabel('App secret').fill(feishu.credentials.appSecret);
  await app.getByLabel('Sign-in port').fill('0');
  await app.getByRole('button', { name: 'Add connection' }).click();
  const card = app.getByRole('article', { name: 'Lark wiki' });
  feishu.control.setConsent('page');
  const popup = context.waitForEvent('page');
  await card.getByRole('button', { name: 'Sign in with Lark' }).click();
  await popup;
  await card.getByRole('button', { name: 'Cancel sign-in' }).click();
  await expect(card.getByRole('button', { name: 'Sign in with Lark' })).toBeVisible();
  await expect(card.getByRole('alert')).toHaveCount(0);
});
