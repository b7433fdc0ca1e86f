// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppErrorData } from '@shared/errors';
import { storedAnswer } from '../../test/chat-fixtures';
import { fakeBackend, settings } from '../../test/fake-api';
import { renderWithStore } from '../../test/render';
import type { ChatExchange } from '../../store/slices/chat-slice';
import { ChatExchangeView } from './ChatExchangeView';

afterEach(cleanup);

function exchange(error: AppErrorData | null, mode: 'model' | 'extractive' = 'extractive'): ChatExchange {
  const answer = { ...storedAnswer('c', 'm', 'Quoted [1]'), mode, error };
  return { key: 1, question: 'VPN?', messageId: 'm', text: answer.text, answer, status: 'done', error: null };
}

function labels(): string[] {
  return [...document.querySelectorAll('.answer-labels .label')].map((label) => label.textContent ?? '');
}

describe('ChatExchangeView says once why an answer is quoted passages', () => {
  it('no chat model configured', () => {
    renderWithStore(<ChatExchangeView exchange={exchange(null)} />, fakeBackend({}));
    expect(labels()).toEqual(['Extractive answer: quoted from your documents (no chat model configured).']);
  });

  it('the chat model unreachable: one message, not "no chat model configured" beside "could not connect"', () => {
    renderWithStore(
      <ChatExchangeView
        exchange={exchange({ code: 'SOURCE_UNREACHABLE', message: 'connect ECONNREFUSED 127.0.0.1:9' })}
      />,
      fakeBackend({}),
    );
    expect(labels()).toEqual([
      'Extractive answer: the chat model could not be reached, so these passages are quoted from your documents. Check it in Settings',
    ]);
    expect(screen.queryByText(/no chat model configured/)).toBeNull();
  });

  it('the chat model unreachable: names the address tried and leads to Settings', () => {
    const { store } = renderWithStore(
      <ChatExchangeView
        exchange={exchange({ code: 'SOURCE_UNREACHABLE', message: 'connect ECONNREFUSED 127.0.0.1:9' })}
      />,
      fakeBackend({}),
      {
        settings: settings({
          chat: {
            provider: 'ollama',
            baseUrl: 'http://127.0.0.1:11434/v1',
            model: 'qwen2.5',
            hasApiKey: false,
            topK: 10,
          },
        }),
      },
    );
    expect(labels()).toEqual([
      'Extractive answer: the chat model at http://127.0.0.1:11434/v1 could not be reached, so these passages are quoted from your documents. Check it in Settings',
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Check it in Settings' }));
    expect(store.getState().view).toBe('settings');
  });

  it('unusable settings: the reason, in one label', () => {
    renderWithStore(
      <ChatExchangeView
        exchange={exchange({ code: 'AUTH_INVALID', message: 'The API key was rejected.' })}
      />,
      fakeBackend({}),
    );
    expect(labels()).toHaveLength(1);
    expect(labels()[0]).toMatch(/^Extractive answer: the chat model settings could not be used: /);
  });

  it('a model answer that failed still shows its error', () => {
    renderWithStore(
      <ChatExchangeView exchange={exchange({ code: 'RATE_LIMITED', message: 'slow down' }, 'model')} />,
      fakeBackend({}),
    );
    expect(labels()).toHaveLength(1);
    expect(document.querySelector('[data-error-code="RATE_LIMITED"]')).not.toBeNull();
  });
});
