/** The browser UI's tab shows Cairn's mark, not the browser's blank page icon (#27). */
import { expect, test } from './fixtures';

test('the page has a favicon, served as an SVG image', async ({ app }) => {
  const href = await app.locator('link[rel="icon"]').getAttribute('href');
  expect(href).toBeTruthy();
  const response = await app.request.get(new URL(href!, app.url()).toString());
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('image/svg+xml');
  expect(await response.text()).toContain('<svg');
});
