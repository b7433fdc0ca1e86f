/** The contract's `chat` domain over the chat service, every failure as data. */
import type { CairnApi } from '@shared/contract';
import type { ChatService } from '../chat/chat-service';
import { toResult } from '../errors';

export function chatApi(chat: ChatService): CairnApi['chat'] {
  return {
    ask: (input) => toResult(() => chat.ask(input)),
    cancel: (input) => toResult(async () => chat.cancel(input.messageId)),
    conversations: () => toResult(() => chat.conversations()),
    messages: (input) => toResult(() => chat.messages(input.conversationId)),
    renameConversation: (input) => toResult(() => chat.renameConversation(input.conversationId, input.title)),
    removeConversation: (input) => toResult(() => chat.removeConversation(input.conversationId)),
  };
}
