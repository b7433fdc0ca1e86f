/** Stored conversations and messages as core returns them, for chat history tests. */
import type { ChatAnswer, ChatMessageView, ConversationView, SourceCard } from '@shared/models';

export function sourceCard(n: number, patch: Partial<SourceCard> = {}): SourceCard {
  return {
    n,
    title: `报销流程 ${n}`,
    platform: 'folder',
    knowledgeBase: 'notes',
    connectionId: 'c1',
    documentId: n,
    externalId: `doc-${n}.md`,
    url: null,
    headingPath: '报销 > 发票',
    paragraph: `第 ${n} 段：报销需要发票。`,
    charStart: 0,
    charEnd: 20,
    ...patch,
  };
}

export function storedAnswer(
  conversationId: string,
  messageId: string,
  text: string,
  cited: number[] = [1],
): ChatAnswer {
  const sources = [sourceCard(1), sourceCard(2)];
  return {
    conversationId,
    messageId,
    text,
    citations: sources.filter((source) => cited.includes(source.n)),
    sources,
    droppedMarkers: [],
    mode: 'extractive',
    incomplete: false,
    error: null,
    usage: null,
  };
}

export function conversationView(id: string, title: string, updatedAt: string): ConversationView {
  return { id, title, createdAt: updatedAt, updatedAt };
}

/** One question and its stored answer (or a pending one when `answer` is null). */
export function storedTurn(
  conversationId: string,
  index: number,
  question: string,
  answer: string | null,
): ChatMessageView[] {
  const at = `2025-05-0${index + 1}T10:00:00.000Z`;
  const answerId = `${conversationId}-a${index}`;
  return [
    { id: `${conversationId}-q${index}`, role: 'user', text: question, createdAt: at, answer: null },
    {
      id: answerId,
      role: 'assistant',
      text: answer ?? '',
      createdAt: at,
      answer: answer === null ? null : storedAnswer(conversationId, answerId, answer),
    },
  ];
}
