// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fail, ok } from '@shared/errors';
import type { McpSetup } from '@shared/models';
import { fakeBackend, settings } from '../../test/fake-api';
import { renderWithStore } from '../../test/render';
import { McpSettings } from './McpSettings';

afterEach(cleanup);

const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));

const SETUP: McpSetup = {
  command: 'npx',
  args: ['--prefix', '/opt/cairn', 'cairn', '--data-dir', '/data/cairn', 'mcp'],
  env: {},
  json: JSON.stringify(
    {
      mcpServers: {
        cairn: {
          command: 'npx',
          args: ['--prefix', '/opt/cairn', 'cairn', '--data-dir', '/data/cairn', 'mcp'],
        },
      },
    },
    null,
    2,
  ),
  claudeConfigPath: '/home/me/.config/Claude/claude_desktop_config.json',
};

describe('Settings → AI tools (MCP)', () => {
  it('shows the configuration to paste, runs the Test with the typed search and reports what it found', async () => {
    const backend = fakeBackend({
      'mcp.setup': () => ok(SETUP),
      'mcp.test': () =>
        ok({
          tools: ['search', 'fetch', 'list_sources', 'ask'],
          query: '报销',
          results: 3,
          firstTitle: '报销流程',
          tookMs: 1_500,
        }),
    });
    renderWithStore(<McpSettings />, backend);
    await settle();
    expect(screen.getByTestId('mcp-json').textContent).toBe(SETUP.json);
    expect(screen.getByText(/claude_desktop_config\.json/).textContent).toContain(SETUP.claudeConfigPath);
    fireEvent.change(screen.getByLabelText('Test search'), { target: { value: ' 报销 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Test' }));
    await settle();
    expect(backend.calls.filter((call) => call.channel === 'mcp.test')).toEqual([
      { channel: 'mcp.test', input: { query: '报销' } },
    ]);
    expect(screen.getByRole('status').textContent).toBe(
      'It works: cairn mcp offered search, fetch, list_sources, ask and found 3 results for “报销” in 1.5 s.',
    );
  });

  it('says in Chinese why the Test failed', async () => {
    const backend = fakeBackend({
      'mcp.setup': () => ok(SETUP),
      'mcp.test': () =>
        fail('SOURCE_UNREACHABLE', 'Could not run npx --prefix /opt/cairn cairn mcp: spawn npx ENOENT'),
    });
    renderWithStore(<McpSettings />, backend, { settings: { ...settings(), language: 'zh' } });
    await settle();
    fireEvent.click(screen.getByRole('button', { name: '测试' }));
    await settle();
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('测试未通过');
    expect(alert.textContent).toContain('spawn npx ENOENT');
  });
});
