import { join } from 'node:path';
import { expect, SCREENSHOT_DIR, test } from './fixtures';

test.use({ locale: 'en-US' });
test.setTimeout(180_000);

/**
 * Settings → Local models as a new user first sees it: the real catalogue (nothing installed, no
 * Ollama on the machine), in both languages and both colour schemes, the section captured whole.
 */
test('Settings lists the local model catalogue with size, licence, speed and published quality (English and Chinese, light and dark)', async ({
  app,
}) => {
  await app.getByRole('button', { name: 'Settings', exact: true }).click();
  const section = app.getByRole('group', { name: 'Local models' });
  await section.scrollIntoViewIfNeeded();
  const small = section.getByTestId('model-bge-small-zh-v1.5');
  await expect(small).toContainText('24.5 MB');
  await expect(small).toContainText('MIT');
  await expect(small).toContainText('C-MTEB');
  await expect(small.getByRole('button', { name: 'Download' })).toBeVisible();
  // No ONNX export of it has a citable checksum: it can only be imported, never downloaded.
  const importOnly = section.getByTestId('model-bge-reranker-v2-m3');
  await expect(importOnly).toContainText('import only');
  await expect(importOnly.getByRole('button', { name: 'Download' })).toHaveCount(0);
  await expect(section.getByTestId('ollama')).toContainText('Ollama is not running');
  // Reranking is on by default, but nothing is installed to rerank with: no switch claims it.
  await expect(section.getByTestId('rerank-none')).toHaveText(
    /^No reranker is installed, so searches are not reranked/,
  );
  await expect(section.getByRole('checkbox', { name: /Rerank search results/ })).toHaveCount(0);

  // The view scrolls inside the window: a window as tall as the section shows it whole. By test id:
  // its accessible name changes with the language.
  await app.setViewportSize({ width: 1280, height: 2600 });
  const shoot = async (name: string) => {
    const whole = app.getByTestId('local-models');
    await whole.scrollIntoViewIfNeeded();
    await whole.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
  };
  await shoot('40-local-models');
  await app.emulateMedia({ colorScheme: 'dark' });
  await shoot('41-local-models-dark');

  await app.getByRole('button', { name: '中文' }).click();
  const zh = app.getByRole('group', { name: '本地模型' });
  await expect(zh.getByRole('heading', { name: '向量模型' })).toBeVisible();
  await expect(zh.getByRole('button', { name: '下载' }).first()).toBeVisible();
  await shoot('43-zh-local-models-dark');
  await app.emulateMedia({ colorScheme: 'light' });
  await shoot('42-zh-local-models');
});
