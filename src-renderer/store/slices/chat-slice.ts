import type { AppErrorData } from '@shared/errors';
import type { ChatAnswer } from '@shared/models';
import type { GetState, SetState, StoreDeps } from '../store-types';
import { furthest } from '../stream-text';

export interface ChatExchange {
  /** Local key (the message id is known only once `chat.ask` answers). */
  key: number;
  question: string;
  messageId: string | null;
  /** Streamed text so far; replaced by the final answer's text on chat.done. */
  text: string;
  answer: ChatAnswer | null;
  status: 'asking' | 'streaming' | 'done' | 'failed';
  error: AppErrorData | null;
}

export interface ChatSlice {
  exchanges: ChatExchange[];
  conversationId: string | null;
  highlighted: { messageId: string; n: number } | null;
  /** Tokens or answers that arrived before `chat.ask` returned their message id. */
  earlyTokens: Record<string, string>;
  earlyAnswers: Record<string, ChatAnswer>;
  /** `searchQuery`: search with this instead of the question (an edited "searched for"). */
  ask(question: string, options?: { searchQuery?: string }): Promise<void>;
  cancelAnswer(): Promise<void>;
  newConversation(): void;
  highlightSource(messageId: string, n: number): void;
  /**
   * After a break in the event stream (or a gap in an answer's tokens): reads the shown
   * conversation's stored messages. An answer that finished meanwhile is shown whole; one still
   * running takes the text streamed so far and goes on with the next tokens.
   */
  catchUpAnswers(): Promise<void>;
}

let exchangeKeys = 0;

/** A fresh local key for an exchange (asked here, or rebuilt from a stored conversation). */
export function nextExchangeKey(): number {
  return ++exchangeKeys;
}

/**
 * Leaving a conversation while an answer streams: its text so far goes back to the early-token
 * buffer, so tokens that keep arriving extend it and reopening the conversation shows it whole.
 */
export function parkStreamingAnswers(
  state: Pick<ChatSlice, 'exchanges' | 'earlyTokens'>,
): Record<string, string> {
  const parked = { ...state.earlyTokens };
  for (const exchange of state.exchanges)
    if (exchange.status === 'streaming' && exchange.messageId) parked[exchange.messageId] = exchange.text;
  return parked;
}

export function createChatSlice(set: SetState, get: GetState, { api }: StoreDeps): ChatSlice {
  /** One catch-up at a time; a gap seen meanwhile asks for one more read after it. */
  let catchingUp: Promise<void> | null = null;
  let catchUpAgain = false;

  async function catchUpOnce(): Promise<void> {
    const { conversationId, exchanges } = get();
    if (
      !conversationId ||
      !exchanges.some((exchange) => exchange.status === 'streaming' && exchange.messageId)
    )
      return;
    const result = await api.chat.messages({ conversationId });
    // A failed read changes nothing: the next reconnect or gap tries again (a removed conversation has nothing to show).
    if (!result.ok) return;
    const stored = new Map(result.value.map((message) => [message.id, message]));
    let finished = false;
    set((state) => {
      if (state.conversationId !== conversationId) return {};
      const caughtUp = state.exchanges.map((exchange): ChatExchange => {
        const message =
          exchange.status === 'streaming' && exchange.messageId ? stored.get(exchange.messageId) : undefined;
        if (!message) return exchange;
        if (!message.answer) return { ...exchange, text: furthest(exchange.text, message.text) };
        finished = true;
        return { ...exchange, text: message.answer.text, answer: message.answer, status: 'done' };
      });
      return { exchanges: caughtUp };
    });
    // As chat.done would have: the answered conversation moved to the top of the history.
    if (finished && get().conversationsStatus !== 'idle') void get().loadConversations();
  }

  return {
    exchanges: [],
    conversationId: null,
    highlighted: null,
    earlyTokens: {},
    earlyAnswers: {},
    async ask(question, options) {
      const key = nextExchangeKey();
      const conversationId = get().conversationId;
      set((state) => ({
        exchanges: [
          ...state.exchanges,
          { key, question, messageId: null, text: '', answer: null, status: 'asking', error: null },
        ],
      }));
      const result = await api.chat.ask({
        question,
        ...(conversationId ? { conversationId } : {}),
        ...(options?.searchQuery ? { searchQuery: options.searchQuery } : {}),
      });
      set((state) => {
        const exchanges = state.exchanges.map((exchange): ChatExchange => {
          if (exchange.key !== key) return exchange;
          if (!result.ok) return { ...exchange, status: 'failed', error: result.error };
          const { messageId } = result.value;
          const early = state.earlyAnswers[messageId];
          if (early) return { ...exchange, messageId, text: early.text, answer: early, status: 'done' };
          return { ...exchange, messageId, text: state.earlyTokens[messageId] ?? '', status: 'streaming' };
        });
        if (!result.ok) return { exchanges };
        const { [result.value.messageId]: _tokens, ...earlyTokens } = state.earlyTokens;
        const { [result.value.messageId]: _answer, ...earlyAnswers } = state.earlyAnswers;
        return { exchanges, conversationId: result.value.conversationId, earlyTokens, earlyAnswers };
      });
      // A new conversation exists from now on: list it while its answer streams.
      if (
        result.ok &&
        get().conversationsStatus !== 'idle' &&
        !get().conversations.some((conversation) => conversation.id === result.value.conversationId)
      ) {
        void get().loadConversations();
      }
    },
    async cancelAnswer() {
      const running = get().exchanges.find(
        (exchange) => exchange.status === 'streaming' && exchange.messageId,
      );
      if (running?.messageId) await api.chat.cancel({ messageId: running.messageId });
    },
    newConversation: () =>
      set((state) => ({
        exchanges: [],
        conversationId: null,
        highlighted: null,
        openingConversationId: null,
        earlyTokens: parkStreamingAnswers(state),
      })),
    highlightSource: (messageId, n) => set({ highlighted: { messageId, n } }),
    catchUpAnswers() {
      if (catchingUp) {
        catchUpAgain = true;
        return catchingUp;
      }
      catchingUp = (async () => {
        do {
          catchUpAgain = false;
          await catchUpOnce();
        } while (catchUpAgain);
      })().finally(() => (catchingUp = null));
      return catchingUp;
    },
  };
}
