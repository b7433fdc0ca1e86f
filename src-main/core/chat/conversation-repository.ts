/** Conversations and messages in the database (tables from migration 003). All chat SQL lives here. */
import { randomUUID } from 'node:crypto';
import type { AppErrorData } from '@shared/errors';
import type { ChatAnswer, ChatMessageView, ConversationView, SourceCard } from '@shared/models';
import type { Db } from '../db/database';
import type { HistoryTurn } from './prompt-builder';

interface ConversationRow {
  id: string;
  title: string;
  created_at: Date;
  updated_at: Date;
}

interface MessageRow {
  id: string;
  conversation_id: string;
  role: 'user' | 'assistant';
  text: string;
  status: 'pending' | 'done';
  mode: 'model' | 'extractive' | null;
  incomplete: boolean;
  sources: SourceCard[];
  citations: SourceCard[];
  dropped_markers: number[];
  error: AppErrorData | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_tokens: number | null;
  searched_for: string[] | null;
  created_at: Date;
}

export interface StartedExchange {
  conversationId: string;
  questionMessageId: string;
  answerMessageId: string;
}

export interface AnswerRecord {
  answer: ChatAnswer;
  retrievalQuery: string | null;
  model: string | null;
}

const TITLE_CHARS = 60;

export class ConversationRepository {
  constructor(private readonly db: Db) {}

  /**
   * Stores the question and a pending answer, in one transaction, creating the conversation when
   * none is given. Returns null when the given conversation does not exist.
   */
  async startExchange(question: string, conversationId?: string): Promise<StartedExchange | null> {
    return this.db.transaction(async (tx) => {
      let id = conversationId;
      if (id) {
        const touched = await tx.query('UPDATE conversations SET updated_at = now() WHERE id = $1', [id]);
        if (!touched.affectedRows) return null;
      } else {
        id = randomUUID();
        await tx.query('INSERT INTO conversations (id, title) VALUES ($1, $2)', [id, titleFor(question)]);
      }
      const questionMessageId = randomUUID();
      const answerMessageId = randomUUID();
      await tx.query("INSERT INTO messages (id, conversation_id, role, text) VALUES ($1, $2, 'user', $3)", [
        questionMessageId,
        id,
        question,
      ]);
      await tx.query(
        "INSERT INTO messages (id, conversation_id, role, status) VALUES ($1, $2, 'assistant', 'pending')",
        [answerMessageId, id],
      );
      return { conversationId: id, questionMessageId, answerMessageId };
    });
  }

  async completeAnswer(messageId: string, record: AnswerRecord): Promise<void> {
    const { answer } = record;
    await this.db.query(
      `UPDATE messages SET status = 'done', text = $2, mode = $3, incomplete = $4, retrieval_query = $5, sources = $6, citations = $7,
         dropped_markers = $8, error = $9, model = $10, prompt_tokens = $11, completion_tokens = $12, total_tokens = $13,
         searched_for = $14
       WHERE id = $1`,
      [
        messageId,
        answer.text,
        answer.mode,
        answer.incomplete,
        record.retrievalQuery,
        JSON.stringify(answer.sources),
        JSON.stringify(answer.citations),
        JSON.stringify(answer.droppedMarkers),
        answer.error ? JSON.stringify(answer.error) : null,
        record.model,
        answer.usage?.promptTokens ?? null,
        answer.usage?.completionTokens ?? null,
        answer.usage?.totalTokens ?? null,
        answer.searchedFor ? JSON.stringify(answer.searchedFor) : null,
      ],
    );
  }

  /**
   * Answers left pending by a crash or a quit mid-stream become incomplete, so they never look
   * like they are still coming. Returns how many were closed.
   */
  async closeInterrupted(): Promise<number> {
    const error: AppErrorData = { code: 'CANCELLED', message: 'Cairn stopped before this answer finished.' };
    const result = await this.db.query(
      "UPDATE messages SET status = 'done', incomplete = true, error = $1 WHERE status = 'pending'",
      [JSON.stringify(error)],
    );
    return result.affectedRows ?? 0;
  }

  async getConversation(id: string): Promise<ConversationView | null> {
    const row = (await this.db.query<ConversationRow>('SELECT * FROM conversations WHERE id = $1', [id]))
      .rows[0];
    return row ? toConversationView(row) : null;
  }

  async listConversations(): Promise<ConversationView[]> {
    const rows = (
      await this.db.query<ConversationRow>(
        'SELECT * FROM conversations ORDER BY updated_at DESC, created_at DESC',
      )
    ).rows;
    return rows.map(toConversationView);
  }

  /** A title the user chose (it keeps its place in the list: updated_at is not touched); null when there is none. */
  async renameConversation(id: string, title: string): Promise<ConversationView | null> {
    const row = (
      await this.db.query<ConversationRow>('UPDATE conversations SET title = $2 WHERE id = $1 RETURNING *', [
        id,
        title,
      ])
    ).rows[0];
    return row ? toConversationView(row) : null;
  }

  /** Removes the conversation and its messages; false when there was none. */
  async removeConversation(id: string): Promise<boolean> {
    const result = await this.db.query('DELETE FROM conversations WHERE id = $1', [id]);
    return (result.affectedRows ?? 0) > 0;
  }

  async listMessages(conversationId: string): Promise<ChatMessageView[]> {
    const rows = (
      await this.db.query<MessageRow>('SELECT * FROM messages WHERE conversation_id = $1 ORDER BY seq', [
        conversationId,
      ])
    ).rows;
    return rows.map(toMessageView);
  }

  /** Finished question/answer pairs before the given answer, oldest first (for follow-ups). */
  async history(conversationId: string, beforeAnswerId: string): Promise<HistoryTurn[]> {
    const rows = (
      await this.db.query<MessageRow>(
        `SELECT * FROM messages WHERE conversation_id = $1 AND seq < (SELECT seq FROM messages WHERE id = $2) ORDER BY seq`,
        [conversationId, beforeAnswerId],
      )
    ).rows;
    const turns: HistoryTurn[] = [];
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      const next = rows[i + 1];
      if (row.role !== 'user') continue;
      // A question whose answer is missing or failed empty still tells what the user is after.
      const answer = next?.role === 'assistant' ? next.text : '';
      turns.push({ question: row.text, answer });
    }
    // The newest question is the one being answered now; it is not history.
    turns.pop();
    return turns;
  }
}

function titleFor(question: string): string {
  const oneLine = question.replace(/\s+/g, ' ').trim();
  return oneLine.length > TITLE_CHARS ? `${oneLine.slice(0, TITLE_CHARS - 1)}…` : oneLine;
}

function iso(value: Date | string): string {
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
}

function toConversationView(row: ConversationRow): ConversationView {
  return { id: row.id, title: row.title, createdAt: iso(row.created_at), updatedAt: iso(row.updated_at) };
}

function toMessageView(row: MessageRow): ChatMessageView {
  const view: ChatMessageView = {
    id: row.id,
    role: row.role,
    text: row.text,
    createdAt: iso(row.created_at),
    answer: null,
  };
  if (row.role === 'assistant' && row.status === 'done') {
    view.answer = {
      conversationId: row.conversation_id,
      messageId: row.id,
      text: row.text,
      citations: row.citations,
      sources: row.sources,
      droppedMarkers: row.dropped_markers,
      mode: row.mode ?? 'model',
      incomplete: row.incomplete,
      error: row.error,
      usage:
        row.total_tokens === null
          ? null
          : {
              promptTokens: row.prompt_tokens ?? 0,
              completionTokens: row.completion_tokens ?? 0,
              totalTokens: row.total_tokens,
            },
      ...(row.searched_for ? { searchedFor: row.searched_for } : {}),
    };
  }
  return view;
}
