// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '@shared/errors';
import { conversationView, storedTurn } from '../../test/chat-fixtures';
import { connection, fakeBackend, settings } from '../../test/fake-api';
import { renderWithStore } from '../../test/render';
import { ChatView } from './ChatView';

afterEach(cleanup);

function history() {
  return fakeBackend({
    'chat.conversations': () =>
      ok([
        conversationView('new', '报销流程是什么？', '2025-05-03T09:30:00.000Z'),
        conversationView('old', 'VPN setup', '2025-05-01T08:00:00.000Z'),
      ]),
    'chat.messages': (input: { conversationId: string }) =>
      ok(storedTurn(input.conversationId, 0, '报销流程是什么？', '报销需要**发票** [1]。')),
    'chat.removeConversation': () => ok(undefined),
    'chat.ask': () => ok({ conversationId: 'new', messageId: 'm-follow-up' }),
  });
}

const docs = { connections: [connection({ documentCount: 6, syncStatus: 'synced' as const })] };

describe('ChatView history', () => {
  it('lists past conversations newest first; opening one shows its answer, whose [1] highlights its source card', async () => {
    const backend = history();
    const { store } = renderWithStore(<ChatView />, backend, docs);
    const list = screen.getByRole('region', { name: 'Conversations' });
    await within(list).findByText('VPN setup');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.querySelector('.conversation-title')?.textContent),
    ).toEqual(['报销流程是什么？', 'VPN setup']);
    fireEvent.click(within(list).getByRole('button', { name: /^报销流程是什么？/ }));
    const marker = await screen.findByRole('button', { name: '[1]' });
    expect(
      screen.getByRole('region', { name: '报销流程是什么？' }).querySelector('strong')?.textContent,
    ).toBe('发票');
    fireEvent.click(marker);
    const card = screen.getByRole('article', { name: '[1] 报销流程 1' });
    expect({
      current: card.getAttribute('aria-current'),
      paragraph: card.querySelector('blockquote')?.textContent,
      active: within(list)
        .getByRole('button', { name: /^报销流程是什么？/ })
        .getAttribute('aria-current'),
      open: store.getState().conversationId,
    }).toEqual({ current: 'true', paragraph: '第 1 段：报销需要发票。', active: 'true', open: 'new' });
  });

  it('a follow-up typed in an opened conversation is asked within it', async () => {
    const backend = history();
    renderWithStore(<ChatView />, backend, docs);
    fireEvent.click(await screen.findByRole('button', { name: /^VPN setup/ }));
    await screen.findByRole('button', { name: '[1]' });
    fireEvent.change(screen.getByRole('textbox', { name: 'Ask' }), { target: { value: 'Who approves it?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Ask' }));
    expect(backend.calls.filter((call) => call.channel === 'chat.ask')).toEqual([
      { channel: 'chat.ask', input: { question: 'Who approves it?', conversationId: 'old' } },
    ]);
  });

  it('deletes a conversation only after confirmation, and New conversation empties the panel', async () => {
    const backend = history();
    const { store } = renderWithStore(<ChatView />, backend, docs);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete “VPN setup”' }));
    expect(backend.calls.some((call) => call.channel === 'chat.removeConversation')).toBe(false);
    const dialog = screen.getByRole('alertdialog', { name: 'Delete this conversation?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, delete' }));
    await waitFor(() => expect(screen.queryByText('VPN setup')).toBeNull());
    expect(backend.calls.filter((call) => call.channel === 'chat.removeConversation')).toEqual([
      { channel: 'chat.removeConversation', input: { conversationId: 'old' } },
    ]);

    fireEvent.click(screen.getByRole('button', { name: /^报销流程是什么？/ }));
    await screen.findByRole('button', { name: '[1]' });
    fireEvent.click(screen.getByRole('button', { name: 'New conversation' }));
    expect({
      exchanges: store.getState().exchanges,
      open: store.getState().conversationId,
      newDisabled: screen.getByRole('button', { name: 'New conversation' }).hasAttribute('disabled'),
    }).toEqual({ exchanges: [], open: null, newDisabled: true });
  });
});

describe('ChatView before the first question', () => {
  it('says up front that no chat model is set, and leads to Settings', async () => {
    const { store } = renderWithStore(<ChatView />, history(), docs);
    const note = await screen.findByRole('note');
    expect(note.textContent).toBe(
      'No chat model is set up, so answers quote the passages that match your question instead of writing an answer. Set up a chat model',
    );
    fireEvent.click(within(note).getByRole('button', { name: 'Set up a chat model' }));
    expect(store.getState().view).toBe('settings');
  });

  it('says nothing of it once a chat model is set', async () => {
    renderWithStore(<ChatView />, history(), {
      ...docs,
      settings: settings({
        chat: { provider: 'openai', baseUrl: '', model: 'gpt-4o-mini', hasApiKey: true, topK: 10 },
      }),
    });
    await screen.findByText(/Answers quote your documents/);
    expect(screen.queryByRole('note')).toBeNull();
  });
});
