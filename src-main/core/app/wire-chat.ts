/** Chat: answers over the search, with the chat model the settings (or CAIRN_CHAT_*) name. */
import { ChatService } from '../chat/chat-service';
import { ConversationRepository } from '../chat/conversation-repository';
import { createChatModelResolver } from '../chat/openai-chat-model';
import type { SearchService } from '../search/search-service';
import type { Base } from './wire-base';

export function wireChat(base: Base, search: SearchService): ChatService {
  const { settings, env } = base;
  const chat = new ChatService({
    search,
    conversations: new ConversationRepository(base.db),
    events: base.events,
    resolveModel: createChatModelResolver(async () => {
      const apiKey = await settings.apiKey('chat');
      base.redactor.register(apiKey, env.CAIRN_CHAT_API_KEY);
      return { settings: (await settings.get()).chat, apiKey, env };
    }),
    topK: async () => (await settings.get()).chat.topK,
    logger: base.logger.child('chat'),
  });
  base.disposers.push(() => chat.dispose());
  return chat;
}
