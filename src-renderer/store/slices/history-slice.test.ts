import { describe, expect, it } from 'vitest';
import { fail, ok } from '@shared/errors';
import type { ConversationView } from '@shared/models';
import { conversationView, storedAnswer, storedTurn } from '../../test/chat-fixtures';
import { fakeBackend } from '../../test/fake-api';
import { createAppStore } from '../app-store';
import { applyEvent } from '../apply-event';

function settle(ms = 0): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function shown(
  exchanges: {
    question: string;
    messageId: string | null;
    text: string;
    status: string;
    answer: { citations: { n: number }[] } | null;
  }[],
) {
  return exchanges.map((exchange) => ({
    question: exchange.question,
    messageId: exchange.messageId,
    text: exchange.text,
    status: exchange.status,
    cited: exchange.answer?.citations.map((source) => source.n) ?? null,
  }));
}

describe('chat history in the store', () => {
  it('opens a stored conversation as its exchanges, and a follow-up continues it', async () => {
    const messages = [
      ...storedTurn('conv-a', 0, '报销流程是什么？', '需要发票 [1]。'),
      ...storedTurn('conv-a', 1, 'And the deadline?', null),
    ];
    const backend = fakeBackend({
      'chat.messages': () => ok(messages),
      'chat.ask': () => ok({ conversationId: 'conv-a', messageId: 'conv-a-a2' }),
    });
    const { store } = createAppStore(backend.api);
    // The second answer is still streaming in core; one token already arrived while another conversation was shown.
    applyEvent(store, 'chat.token', {
      conversationId: 'conv-a',
      messageId: 'conv-a-a1',
      delta: 'Within 30 days',
      offset: 0,
    });
    await store.getState().openConversation('conv-a');
    expect({
      conversation: store.getState().conversationId,
      exchanges: shown(store.getState().exchanges),
    }).toEqual({
      conversation: 'conv-a',
      exchanges: [
        {
          question: '报销流程是什么？',
          messageId: 'conv-a-a0',
          text: '需要发票 [1]。',
          status: 'done',
          cited: [1],
        },
        {
          question: 'And the deadline?',
          messageId: 'conv-a-a1',
          text: 'Within 30 days',
          status: 'streaming',
          cited: null,
        },
      ],
    });
    // Switching away mid-stream and back loses no token.
    applyEvent(store, 'chat.token', {
      conversationId: 'conv-a',
      messageId: 'conv-a-a1',
      delta: ' of purchase',
      offset: 14,
    });
    store.getState().newConversation();
    applyEvent(store, 'chat.token', {
      conversationId: 'conv-a',
      messageId: 'conv-a-a1',
      delta: ' [2]',
      offset: 26,
    });
    await store.getState().openConversation('conv-a');
    expect({ text: store.getState().exchanges[1]?.text, buffered: store.getState().earlyTokens }).toEqual({
      text: 'Within 30 days of purchase [2]',
      buffered: {},
    });
    applyEvent(store, 'chat.done', storedAnswer('conv-a', 'conv-a-a1', 'Within 30 days [2].', [2]));
    await store.getState().ask('Who approves it?');
    expect({ ask: backend.calls.at(-1), second: shown(store.getState().exchanges)[1]?.status }).toEqual({
      ask: { channel: 'chat.ask', input: { question: 'Who approves it?', conversationId: 'conv-a' } },
      second: 'done',
    });
  });

  it('shows only the conversation opened last when answers arrive out of order', async () => {
    const backend = fakeBackend({
      'chat.messages': async (input: { conversationId: string }) => {
        await settle(input.conversationId === 'slow' ? 30 : 0);
        return ok(storedTurn(input.conversationId, 0, `question of ${input.conversationId}`, 'answer [1]'));
      },
    });
    const { store } = createAppStore(backend.api);
    const slow = store.getState().openConversation('slow');
    await store.getState().openConversation('fast');
    await slow;
    expect({
      conversation: store.getState().conversationId,
      questions: store.getState().exchanges.map((exchange) => exchange.question),
      opening: store.getState().openingConversationId,
    }).toEqual({ conversation: 'fast', questions: ['question of fast'], opening: null });
  });

  it('keeps the list fresh: a new conversation is listed when asked, and chat.done re-fetches the order', async () => {
    let listed: ConversationView[] = [conversationView('old', 'Older question', '2025-05-01T10:00:00.000Z')];
    const backend = fakeBackend({
      'chat.conversations': () => ok(listed),
      'chat.ask': () => ok({ conversationId: 'new', messageId: 'm1' }),
    });
    const { store } = createAppStore(backend.api);
    // Not loaded yet: an answer does not fetch a list nobody shows.
    applyEvent(store, 'chat.done', storedAnswer('x', 'mx', 'text'));
    expect(backend.calls).toEqual([]);
    await store.getState().loadConversations();
    listed = [conversationView('new', 'New question', '2025-05-02T10:00:00.000Z'), ...listed];
    await store.getState().ask('New question');
    await settle();
    const afterAsk = store.getState().conversations.map((conversation) => conversation.id);
    listed = [listed[1]!, listed[0]!];
    applyEvent(store, 'chat.done', storedAnswer('new', 'm1', 'answer'));
    await settle();
    expect({
      afterAsk,
      afterDone: store.getState().conversations.map((conversation) => conversation.id),
      lists: backend.calls.filter((call) => call.channel === 'chat.conversations').length,
    }).toEqual({ afterAsk: ['new', 'old'], afterDone: ['old', 'new'], lists: 3 });
  });

  it('deleting the open conversation starts a new one; a refused delete keeps it and says why', async () => {
    let refuse = true;
    const backend = fakeBackend({
      'chat.conversations': () =>
        ok([
          conversationView('a', 'A', '2025-05-02T10:00:00.000Z'),
          conversationView('b', 'B', '2025-05-01T10:00:00.000Z'),
        ]),
      'chat.messages': () => ok(storedTurn('a', 0, 'question', 'answer [1]')),
      'chat.removeConversation': () => (refuse ? fail('INTERNAL', 'The database is busy.') : ok(undefined)),
    });
    const { store } = createAppStore(backend.api);
    await store.getState().loadConversations();
    await store.getState().openConversation('a');
    await store.getState().removeConversation('a');
    const refused = {
      listed: store.getState().conversations.length,
      open: store.getState().conversationId,
      notice: store.getState().notice?.text,
    };
    refuse = false;
    await store.getState().removeConversation('a');
    expect({
      refused,
      listed: store.getState().conversations.map((conversation) => conversation.id),
      open: store.getState().conversationId,
      exchanges: store.getState().exchanges,
    }).toEqual({
      refused: { listed: 2, open: 'a', notice: 'The database is busy.' },
      listed: ['b'],
      open: null,
      exchanges: [],
    });
  });

  it('a conversation that vanished meanwhile is reported and dropped from the list', async () => {
    let listed = [conversationView('gone', 'Gone', '2025-05-02T10:00:00.000Z')];
    const backend = fakeBackend({
      'chat.conversations': () => ok(listed),
      'chat.messages': () => fail('NOT_FOUND', 'No conversation gone.'),
    });
    const { store } = createAppStore(backend.api);
    await store.getState().loadConversations();
    listed = [];
    await store.getState().openConversation('gone');
    await settle();
    expect({
      notice: store.getState().notice?.text,
      listed: store.getState().conversations,
      opening: store.getState().openingConversationId,
    }).toEqual({ notice: 'No conversation gone.', listed: [], opening: null });
  });
});
