import type { AppErrorData } from '@shared/errors';
import type { ChatAnswer, ChatMessageView, ConversationView } from '@shared/models';
import type { GetState, SetState, StoreDeps } from '../store-types';
import { furthest } from '../stream-text';
import { nextExchangeKey, parkStreamingAnswers, type ChatExchange } from './chat-slice';

export interface HistorySlice {
  /** Stored conversations, newest first (as core orders them). */
  conversations: ConversationView[];
  /** 'idle' until the chat panel first asks for the list. */
  conversationsStatus: 'idle' | 'loading' | 'ready' | 'failed';
  conversationsError: AppErrorData | null;
  /** The conversation whose messages are being fetched; its exchanges replace the shown ones. */
  openingConversationId: string | null;
  loadConversations(): Promise<void>;
  /** Shows a stored conversation; a follow-up question then continues it (multi-turn retrieval). */
  openConversation(conversationId: string): Promise<void>;
  removeConversation(conversationId: string): Promise<void>;
  renameConversation(conversationId: string, title: string): Promise<boolean>;
}

interface StreamState {
  earlyTokens: Record<string, string>;
  earlyAnswers: Record<string, ChatAnswer>;
}

/**
 * Rebuilds the panel's exchanges from stored messages: each question with the answer after it.
 * An answer still pending in the database is streaming now (perhaps begun before the user
 * switched away), so it picks up whatever tokens or final answer already arrived for it.
 */
export function exchangesFromMessages(messages: ChatMessageView[], stream: StreamState): ChatExchange[] {
  const exchanges: ChatExchange[] = [];
  messages.forEach((message, index) => {
    if (message.role !== 'user') return;
    const reply = messages[index + 1]?.role === 'assistant' ? messages[index + 1] : undefined;
    const base = { key: nextExchangeKey(), question: message.text, error: null };
    if (!reply) {
      exchanges.push({ ...base, messageId: null, text: '', answer: null, status: 'done' });
      return;
    }
    const answer = reply.answer ?? stream.earlyAnswers[reply.id] ?? null;
    if (answer) exchanges.push({ ...base, messageId: reply.id, text: answer.text, answer, status: 'done' });
    // Core holds the text streamed so far too; whichever got further is shown, and later tokens extend it.
    else
      exchanges.push({
        ...base,
        messageId: reply.id,
        text: furthest(stream.earlyTokens[reply.id] ?? '', reply.text),
        answer: null,
        status: 'streaming',
      });
  });
  return exchanges;
}

export function createHistorySlice(set: SetState, get: GetState, { api }: StoreDeps): HistorySlice {
  let latestList = 0;
  return {
    conversations: [],
    conversationsStatus: 'idle',
    conversationsError: null,
    openingConversationId: null,
    async loadConversations() {
      const request = ++latestList;
      if (get().conversationsStatus !== 'ready') set({ conversationsStatus: 'loading' });
      const result = await api.chat.conversations();
      // Refreshes overlap (panel opened, answer done): only the newest answer may land.
      if (request !== latestList) return;
      if (result.ok)
        set({ conversations: result.value, conversationsStatus: 'ready', conversationsError: null });
      else set({ conversationsStatus: 'failed', conversationsError: result.error });
    },
    async openConversation(conversationId) {
      set({ openingConversationId: conversationId });
      const result = await api.chat.messages({ conversationId });
      // The user opened another conversation, or started a new one, meanwhile.
      if (get().openingConversationId !== conversationId) return;
      if (!result.ok) {
        set({ openingConversationId: null });
        get().showError(result.error);
        if (result.error.code === 'NOT_FOUND') void get().loadConversations();
        return;
      }
      set((state) => {
        const stream = { earlyTokens: parkStreamingAnswers(state), earlyAnswers: state.earlyAnswers };
        const exchanges = exchangesFromMessages(result.value, stream);
        // What the shown exchanges took over no longer waits in the buffers.
        const shown = new Set(exchanges.map((exchange) => exchange.messageId));
        const earlyTokens = Object.fromEntries(
          Object.entries(stream.earlyTokens).filter(([id]) => !shown.has(id)),
        );
        const earlyAnswers = Object.fromEntries(
          Object.entries(stream.earlyAnswers).filter(([id]) => !shown.has(id)),
        );
        return {
          openingConversationId: null,
          conversationId,
          highlighted: null,
          exchanges,
          earlyTokens,
          earlyAnswers,
        };
      });
    },
    async renameConversation(conversationId, title) {
      const result = await api.chat.renameConversation({ conversationId, title });
      if (!result.ok) {
        get().showError(result.error);
        return false;
      }
      set((state) => ({
        conversations: state.conversations.map((conversation) =>
          conversation.id === conversationId ? result.value : conversation,
        ),
      }));
      return true;
    },
    async removeConversation(conversationId) {
      const result = await api.chat.removeConversation({ conversationId });
      if (!result.ok && result.error.code !== 'NOT_FOUND') {
        get().showError(result.error);
        return;
      }
      set((state) => ({
        conversations: state.conversations.filter((conversation) => conversation.id !== conversationId),
      }));
      if (get().conversationId === conversationId || get().openingConversationId === conversationId)
        get().newConversation();
    },
  };
}
