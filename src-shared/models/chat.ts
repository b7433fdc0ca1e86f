/** Chat: answers with their source cards, messages and conversations. */
import type { AppErrorData } from '../errors';
import type { Platform } from './connections';
import type { ChunkLocation, Freshness } from './search';

export interface SourceCard {
  /** The [n] the answer uses. */
  n: number;
  title: string;
  platform: Platform;
  knowledgeBase: string;
  connectionId: string;
  documentId: number | null;
  externalId: string;
  url: string | null;
  headingPath: string;
  /** The paragraph shown on the card. */
  paragraph: string;
  charStart: number | null;
  charEnd: number | null;
  /** Page, slide or rows of the original file; absent or null when the format has none. */
  location?: ChunkLocation | null;
  /**
   * When the source was edited and synced, as of the answer (the search's SearchHit.freshness);
   * absent for a live hit and for answers stored before it was kept.
   */
  freshness?: Freshness;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface ChatAnswer {
  conversationId: string;
  messageId: string;
  text: string;
  /** Sources actually cited by a valid [n] in the text. */
  citations: SourceCard[];
  /** All sources given to the model (or used by the extractive answer). */
  sources: SourceCard[];
  /** Markers that pointed to no source and were removed. */
  droppedMarkers: number[];
  mode: 'model' | 'extractive';
  incomplete: boolean;
  error: AppErrorData | null;
  usage: TokenUsage | null;
  /**
   * What retrieval searched for, in order: a follow-up's standalone rewrite, then the question as
   * asked (one entry when they are the same), or the one query the user edited (`chat.ask`'s
   * `searchQuery`). Empty when nothing was searched (the answer failed first); absent on answers
   * stored before it was kept.
   */
  searchedFor?: string[];
}

export interface ChatMessageView {
  id: string;
  role: 'user' | 'assistant';
  /** For an answer still running (`answer` null), the text streamed so far. */
  text: string;
  createdAt: string;
  answer: ChatAnswer | null;
}

export interface ConversationView {
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
}
