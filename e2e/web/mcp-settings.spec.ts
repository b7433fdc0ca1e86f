import { addFolder, expect, screenshot, syncAndWait, test } from './fixtures';

test.use({ locale: 'en-US' });

// The Test starts a real `cairn mcp` (npx → tsx → the CLI) that reaches this backend over its
// instance socket: seconds on a quiet machine, up to a minute or two on a loaded one.
test.setTimeout(300_000);

test('Settings shows the MCP configuration to paste, and its Test searches through a real cairn mcp (English and Chinese)', async ({
  app,
  backend,
}) => {
  await addFolder(app, backend);
  await syncAndWait(app, 'notes');
  await app.getByRole('button', { name: 'Settings', exact: true }).click();
  const section = app.getByRole('group', { name: 'AI tools (MCP)' });
  await section.scrollIntoViewIfNeeded();
  const json = JSON.parse((await section.getByTestId('mcp-json').textContent()) ?? '') as {
    mcpServers: { cairn: { command: string; args: string[] } };
  };
  expect(json.mcpServers.cairn.command).toBe('npx');
  expect(json.mcpServers.cairn.args.slice(-3)).toEqual(['--data-dir', backend.cairn.dataDir, 'mcp']);
  await section.getByLabel('Test search').fill('报销');
  await section.getByRole('button', { name: 'Test' }).click();
  await expect(section.getByRole('status')).toContainText(
    'It works: cairn mcp offered search, fetch, list_sources, ask',
    {
      timeout: 240_000,
    },
  );
  await expect(section.getByRole('status')).toContainText('for “报销”');
  await section.getByRole('status').scrollIntoViewIfNeeded();
  await screenshot(app, '30-mcp-settings');

  await app.getByRole('button', { name: '中文' }).click();
  const zh = app.getByRole('group', { name: 'AI 工具（MCP）' });
  await expect(zh.getByRole('button', { name: '测试' })).toBeVisible();
  await zh.getByRole('status').scrollIntoViewIfNeeded();
  await screenshot(app, '31-zh-mcp-settings');
});
