/**
 * The DEMO backend's chat: an extractive answer (one sentence per retrieved source, each with
 * its [n] marker), streamed as chat.token events and closed by chat.done, like the real chat.
 */
import type { ChatAnswer, ChatMessageView, ConversationView, SearchHit, SourceCard } from '../../../src-shared/models';
import type { DemoTimers, Emit } from './demo-state';

interface DemoConversation {
  view: ConversationView;
  messages: ChatMessageView[];
}

export interface DemoChatDeps {
  timers: DemoTimers;
  emit: Emit;
  tickMs: number;
  retrieve(question: string, k: number): SearchHit[];
  newId(): number;
}

function firstSentence(text: string): string {
  const match = /^[\s\S]*?[。！？!?]|^[\s\S]*?\.(?=\s|$)/.exec(text.trim());
  return (match ? match[0] : text).trim();
}

function toSourceCard(hit: SearchHit, n: number): SourceCard {
  return {
    n,
    title: hit.title,
    platform: hit.platform,
    knowledgeBase: hit.knowledgeBase,
    connectionId: hit.connectionId,
    documentId: hit.documentId,
    externalId: hit.externalId,
    url: hit.url,
    headingPath: hit.headingPath,
    paragraph: hit.text,
    charStart: hit.charStart,
    charEnd: hit.charEnd,
  };
}

export function composeExtractiveAnswer(question: string, sources: SourceCard[]): string {
  const chinese = /\p{Script=Han}/u.test(question);
  if (sources.length === 0) return chinese ? '你的文档里还没有找到相关内容。' : 'Nothing in your documents answers this yet.';
  const lines = sources.map((source) => `- **${source.title}**${chinese ? '：' : ': '}${firstSentence(source.paragraph)} [${source.n}]`);
  return `${chinese ? '根据你的文档：' : 'From your documents:'}\n\n${lines.join('\n')}`;
}

export class DemoChat {
  private readonly conversations = new Map<string, DemoConversation>();
  private readonly running = new Map<string, AbortController>();

  constructor(private readonly deps: DemoChatDeps) {}

  ask(question: string, conversationId: string | undefined, k: number): { conversationId: string; messageId: string } | null {
    const now = new Date().toISOString();
    let conversation = conversationId ? this.conversations.get(conversationId) : undefined;
    if (conversationId && !conversation) return null;
    if (!conversation) {
      const id = `conv-${this.deps.newId()}`;
      conversation = { view: { id, title: question.slice(0, 60), createdAt: now, updatedAt: now }, messages: [] };
      this.conversations.set(id, conversation);
    }
    conversation.view.updatedAt = now;
    conversation.messages.push({ id: `msg-${this.deps.newId()}`, role: 'user', text: question, createdAt: now, answer: null });
    const messageId = `msg-${this.deps.newId()}`;
    const sources = this.deps.retrieve(question, Math.min(k, 3)).map((hit, index) => toSourceCard(hit, index + 1));
    const text = composeExtractiveAnswer(question, sources);
    this.stream(conversation, messageId, text, sources);
    return { conversationId: conversation.view.id, messageId };
  }

  cancel(messageId: string): boolean {
    const controller = this.running.get(messageId);
    controller?.abort();
    return controller !== undefined;
  }

  list(): ConversationView[] {
    return [...this.conversations.values()].map((conversation) => ({ ...conversation.view })).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  }

  messages(conversationId: string): ChatMessageView[] | null {
    return this.conversations.get(conversationId)?.messages.map((message) => ({ ...message })) ?? null;
  }

  remove(conversationId: string): boolean {
    return this.conversations.delete(conversationId);
  }

  private stream(conversation: DemoConversation, messageId: string, text: string, sources: SourceCard[]): void {
    const controller = new AbortController();
    this.running.set(messageId, controller);
    const pieces = text.match(/[\s\S]{1,4}/gu) ?? [];
    const conversationId = conversation.view.id;
    let sent = '';
    const interval = Math.max(10, Math.round(this.deps.tickMs / 4));
    const finish = (incomplete: boolean) => {
      this.running.delete(messageId);
      const answerText = incomplete ? sent : text;
      const citations = sources.filter((source) => answerText.includes(`[${source.n}]`));
      const answer: ChatAnswer = { conversationId, messageId, text: answerText, citations, sources, droppedMarkers: [], mode: 'extractive', incomplete, error: null, usage: null };
      conversation.messages.push({ id: messageId, role: 'assistant', text: answerText, createdAt: new Date().toISOString(), answer });
      this.deps.emit('chat.done', answer);
    };
    const step = (index: number) => {
      if (controller.signal.aborted) return finish(true);
      if (index >= pieces.length) return finish(false);
      sent += pieces[index]!;
      this.deps.emit('chat.token', { conversationId, messageId, delta: pieces[index]! });
      this.deps.timers.later(interval, () => step(index + 1));
    };
    this.deps.timers.later(interval, () => step(0));
  }
}
