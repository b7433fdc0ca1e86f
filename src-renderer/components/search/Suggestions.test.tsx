// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '@shared/errors';
import type { DocumentTopic } from '@shared/models';
import { connection, fakeBackend, settings } from '../../test/fake-api';
import { renderWithStore } from '../../test/render';
import { ReadyPanel } from '../connections/ReadyPanel';
import { ChatView } from '../chat/ChatView';
import { SearchView } from './SearchView';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

const TOPICS: DocumentTopic[] = [
  '发票要求',
  'Installing the client',
  'Release checklist',
  '审批',
  'VPN setup',
  'Rollback',
].map((text, i) => ({ text, documentId: i + 1, title: `Doc ${i + 1}` }));

function backend() {
  return fakeBackend({
    'documents.topics': () => ok(TOPICS),
    'search.query': () => ok({ hits: [], documents: [], warnings: [], tookMs: 1 }),
    'chat.ask': () => ok({ conversationId: 'c', messageId: 'm' }),
    'chat.conversations': () => ok([]),
  });
}

const indexed = { connections: [connection({ documentCount: 6, syncStatus: 'synced' as const })] };

describe('suggestions from the user’s own headings', () => {
  it('the empty Search view offers searches; a click searches for it', async () => {
    const api = backend();
    const { store } = renderWithStore(<SearchView />, api, indexed);
    const group = await screen.findByRole('group', { name: 'Try searching for' });
    expect(
      within(group)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['发票要求', 'Installing the client', 'Release checklist']);
    fireEvent.click(within(group).getByRole('button', { name: '发票要求' }));
    expect(store.getState().query).toBe('发票要求');
    await waitFor(() => expect(api.calls.some((call) => call.channel === 'search.query')).toBe(true));
  });

  it('the empty Ask view offers questions made from other headings, each in one language; a click asks it', async () => {
    const api = backend();
    renderWithStore(<ChatView />, api, indexed);
    const group = await screen.findByRole('group', { name: 'Questions to ask' });
    const labels = () =>
      within(group)
        .getAllByRole('button')
        .map((button) => [button.textContent, button.getAttribute('lang')]);
    // A Chinese heading is asked in Chinese (marked as such in the English UI), others in the UI language.
    expect(labels()).toEqual([
      ['文档里关于「审批」是怎么说的？', 'zh-CN'],
      ['What do my documents say about “VPN setup”?', null],
      ['What do my documents say about “Rollback”?', null],
    ]);
    const question = '文档里关于「审批」是怎么说的？';
    fireEvent.click(within(group).getByRole('button', { name: question }));
    await waitFor(() =>
      expect(api.calls.filter((call) => call.channel === 'chat.ask')).toEqual([
        { channel: 'chat.ask', input: { question } },
      ]),
    );
    cleanup();
    renderWithStore(<ChatView />, backend(), { ...indexed, settings: settings({ language: 'zh' }) });
    const zhGroup = await screen.findByRole('group', { name: '可以这样提问' });
    expect(within(zhGroup).getByRole('button', { name: '文档里关于「Rollback」是怎么说的？' })).toBeTruthy();
  });

  it('after the first sync a panel leads on, until it is used or dismissed; nothing without documents', async () => {
    const empty = renderWithStore(<ReadyPanel />, backend(), {
      connections: [connection({ documentCount: 0 })],
    });
    expect(empty.container.textContent).toBe('');
    cleanup();
    renderWithStore(<ReadyPanel />, backend(), indexed);
    await screen.findByRole('heading', { name: 'Your documents are ready' });
    expect(screen.getByText(/Cairn indexed 6 documents/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Got it' }));
    expect(screen.queryByRole('heading', { name: 'Your documents are ready' })).toBeNull();
    cleanup();
    const again = renderWithStore(<ReadyPanel />, backend(), indexed);
    await waitFor(() => expect(again.store.getState().topics).toHaveLength(6));
    expect(screen.queryByRole('heading', { name: 'Your documents are ready' })).toBeNull();
  });
});
