// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '@shared/errors';
import { sourceCard, storedAnswer } from '../../test/chat-fixtures';
import { fakeBackend, settings } from '../../test/fake-api';
import { renderWithStore } from '../../test/render';
import type { ChatExchange } from '../../store/slices/chat-slice';
import { ChatExchangeView } from './ChatExchangeView';

afterEach(cleanup);

const HOUR = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

function exchange(searchedFor?: string[]): ChatExchange {
  const answer = {
    ...storedAnswer('c', 'm', 'It expires every 90 days [1].'),
    ...(searchedFor ? { searchedFor } : {}),
  };
  answer.citations = [
    sourceCard(1, {
      title: 'VPN Guide',
      freshness: {
        editedAt: ago(5 * 24 * HOUR),
        syncedAt: ago(3 * HOUR),
        changed: { kind: 'file-modified', at: ago(HOUR) },
      },
    }),
  ];
  return {
    key: 1,
    question: 'How often does it expire?',
    messageId: 'm',
    text: answer.text,
    answer,
    status: 'done',
    error: null,
  };
}

function render(searchedFor: string[] | undefined, language: 'en' | 'zh' = 'en') {
  const backend = fakeBackend({ 'chat.ask': () => ok({ conversationId: 'c', messageId: 'm2' }) });
  const rendered = renderWithStore(<ChatExchangeView exchange={exchange(searchedFor)} />, backend, {
    settings: settings({ language }),
  });
  return { backend, ...rendered };
}

describe('the query behind an answer', () => {
  it('shows what was searched for and asks again with the edited query', async () => {
    const { backend } = render([
      'How do I renew the VPN certificate? How often does it expire?',
      'How often does it expire?',
    ]);
    expect(document.querySelector('.searched-for')?.textContent).toBe(
      'Searched for “How do I renew the VPN certificate? How often does it expire?” and “How often does it expire?” Edit',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    const box = screen.getByRole('textbox', { name: 'Search for' });
    expect((box as HTMLInputElement).value).toBe(
      'How do I renew the VPN certificate? How often does it expire?',
    );
    // Escape gives up the edit without asking.
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByRole('textbox', { name: 'Search for' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Search for' }), {
      target: { value: ' VPN certificate lifetime ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Search and answer again' }));
    await waitFor(() =>
      expect(backend.calls.find((call) => call.channel === 'chat.ask')?.input).toEqual({
        question: 'How often does it expire?',
        searchQuery: 'VPN certificate lifetime',
      }),
    );
    expect(screen.queryByRole('textbox', { name: 'Search for' })).toBeNull();
  });

  it('says nothing for an answer stored before the query was kept', () => {
    render(undefined);
    expect(document.querySelector('.searched-for')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
  });

  it('in Chinese too, with the source card saying when it was edited and synced', () => {
    render(['报销 发票 期限'], 'zh');
    expect(document.querySelector('.searched-for')?.textContent).toBe('检索了 “报销 发票 期限” 修改');
    const card = screen.getByRole('article', { name: '[1] VPN Guide' });
    expect(card.querySelector('.hit-freshness')?.textContent).toBe(
      '5 天前编辑 · 3 小时前同步文件在同步后有改动（1 小时前），同步后更新',
    );
    cleanup();
    render(['vpn']);
    expect(
      within(screen.getByRole('article', { name: '[1] VPN Guide' })).getByText(
        'edited 5 days ago · synced 3 h ago',
      ),
    ).toBeTruthy();
  });
});
