// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '@shared/errors';
import type { SettingsPatch, SettingsView } from '@shared/models';
import { App } from '../../App';
import { fakeBackend, settings, snapshot, userCalls } from '../../test/fake-api';
import { renderWithStore } from '../../test/render';

afterEach(cleanup);

/** A backend whose settings.update applies the patch, as core does. */
function settingsBackend() {
  let current: SettingsView = settings();
  return fakeBackend({
    'settings.update': (patch: SettingsPatch) => {
      const { apiKey, ...chat } = patch.chat ?? {};
      current = {
        ...current,
        ...(patch.syncIntervalHours ? { syncIntervalHours: patch.syncIntervalHours } : {}),
        ...(patch.chat
          ? { chat: { ...current.chat, ...chat, hasApiKey: current.chat.hasApiKey || !!apiKey } }
          : {}),
      };
      return ok(current);
    },
    'models.list': () =>
      ok({
        models: [],
        dir: '/m',
        source: { kind: 'huggingface', url: 'https://huggingface.co', fromEnv: false },
        cores: 2,
      }),
    'models.detectOllama': () => ok({ baseUrl: 'http://127.0.0.1:11434', reachable: false, models: [] }),
    'mcp.setup': () => ok({ command: 'cairn', args: ['mcp'], env: {}, json: '{}', claudeConfigPath: '/c' }),
  });
}

function setUpChatModel() {
  fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
  const chat = screen.getByRole('group', { name: 'Chat model' });
  fireEvent.change(within(chat).getByLabelText('Provider'), { target: { value: 'custom' } });
  fireEvent.change(within(chat).getByLabelText('Base URL'), { target: { value: 'http://127.0.0.1:9/v1' } });
  fireEvent.change(within(chat).getByLabelText('Model'), { target: { value: 'qwen' } });
  fireEvent.change(within(chat).getByLabelText('API key'), { target: { value: 'sk-test' } });
  return chat;
}

describe('Settings never lose a change', () => {
  it('asks before leaving with an unsaved chat model; "Save and continue" saves it, then goes', async () => {
    const backend = settingsBackend();
    const { store } = renderWithStore(<App />, backend);
    setUpChatModel();
    fireEvent.click(screen.getByRole('button', { name: 'Ask' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Save your changes?' });
    expect([store.getState().view, dialog.textContent]).toEqual([
      'settings',
      expect.stringContaining('Chat model: changes not saved yet.'),
    ]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save and continue' }));
    await screen.findByRole('heading', { name: 'Ask your documents' });
    expect({
      calls: userCalls(backend).filter((call) => call.channel === 'settings.update'),
      chat: store.getState().settings?.chat,
      view: store.getState().view,
    }).toEqual({
      calls: [
        {
          channel: 'settings.update',
          input: {
            chat: {
              provider: 'custom',
              baseUrl: 'http://127.0.0.1:9/v1',
              model: 'qwen',
              topK: 10,
              apiKey: 'sk-test',
            },
          },
        },
      ],
      chat: {
        provider: 'custom',
        baseUrl: 'http://127.0.0.1:9/v1',
        model: 'qwen',
        topK: 10,
        hasApiKey: true,
      },
      view: 'chat',
    });
  });

  it('"Keep editing" stays with the draft; Discard drops it and goes; Ctrl+K asks too', async () => {
    const backend = settingsBackend();
    const { store } = renderWithStore(<App />, backend);
    setUpChatModel();
    fireEvent.keyDown(window, { key: 'k', ctrlKey: true });
    fireEvent.click(await screen.findByRole('button', { name: 'Keep editing' }));
    const kept = (
      within(screen.getByRole('group', { name: 'Chat model' })).getByLabelText('Model') as HTMLInputElement
    ).value;
    fireEvent.click(screen.getByRole('button', { name: 'Connections' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Discard changes' }));
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const chat = screen.getByRole('group', { name: 'Chat model' });
    expect({
      kept,
      provider: (within(chat).getByLabelText('Provider') as HTMLSelectElement).value,
      updates: userCalls(backend).filter((call) => call.channel === 'settings.update'),
      dialog: screen.queryByRole('alertdialog'),
      edits: store.getState().settingsEdits,
    }).toEqual({ kept: 'qwen', provider: 'none', updates: [], dialog: null, edits: {} });
  });

  it('saves one section on its own, leaving another section’s edit unsaved and marked', async () => {
    const backend = settingsBackend();
    renderWithStore(<App />, backend);
    const chat = setUpChatModel();
    const sync = screen.getByRole('group', { name: 'Scheduled sync' });
    fireEvent.change(within(sync).getByLabelText('Re-sync every (hours)'), { target: { value: '6' } });
    fireEvent.click(within(sync).getByRole('button', { name: 'Save' }));
    await screen.findByText('Settings saved.');
    expect({
      updates: userCalls(backend)
        .filter((call) => call.channel === 'settings.update')
        .map((call) => call.input),
      syncSave: (within(sync).getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled,
      chatMarked: within(chat).queryByText('Unsaved changes') !== null,
    }).toEqual({ updates: [{ syncIntervalHours: 6 }], syncSave: true, chatMarked: true });
  });
});

describe('Settings show the data directory', () => {
  it('with its size on disk, measured when Settings open, and the room left on its volume', async () => {
    const backend = fakeBackend({
      'app.status': () =>
        ok(
          snapshot({
            storage: {
              totalBytes: 48_200_000,
              databaseBytes: 41_000_000,
              freeBytes: 51_384_000_000,
              volume: '/home',
            },
          }),
        ),
    });
    renderWithStore(<App />, backend);
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const size = await screen.findByTestId('data-dir-size');
    expect(size.textContent).toBe('On disk: 48.2 MB (index 41 MB) · 51.38 GB free on its volume');
  });
});

describe('Settings put what decides search first', () => {
  it('the search, chat and sync settings come before the model downloads and MCP', async () => {
    renderWithStore(<App />, settingsBackend());
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    await screen.findByTestId('local-models');
    // The page's own sections, in order (a section's inner fieldsets are not sections of the page).
    const sections = [...document.querySelectorAll<HTMLFieldSetElement>('fieldset.settings-group')].filter(
      (section) => section.parentElement?.closest('fieldset') === null,
    );
    const legends = sections.map((section) => section.querySelector('legend')?.textContent ?? '');
    const models = sections.findIndex((section) => section.dataset.testid === 'local-models');
    expect(models).toBe(sections.length - 2);
    expect(sections.at(-1)!.className).toContain('mcp-settings');
    // Embeddings decide how search works: the first section after the display ones, then chat and sync.
    expect(legends.slice(legends.indexOf('Embeddings'), models)).toEqual([
      'Embeddings',
      'Chat model',
      'Scheduled sync',
    ]);
  });
});
