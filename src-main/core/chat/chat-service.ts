/**
 * The `chat` domain of the contract. ask() stores the question and returns at once; the answer is
 * produced in the background: retrieve (with the question rewritten for follow-ups) → numbered
 * sources → streamed model answer (`chat.token` events) → validated citations → stored and sent
 * as `chat.done`. Without a usable model the answer is extractive.
 */
import type { AppErrorData } from '@shared/errors';
import type { ChatAnswer, ChatMessageView, ConversationView, SearchHit, TokenUsage } from '@shared/models';
import type { EventBus } from '../events/event-bus';
import { CairnError, toErrorData } from '../errors';
import { silentLogger, type Logger } from '../logging/logger';
import type { SearchService } from '../search/search-service';
import type { ChatMessage, ChatModel, ResolvedChatModel } from './chat-model';
import { citedCards, paragraphUsedByAnswer, toSourceCard, validateCitations } from './citations';
import type { ConversationRepository } from './conversation-repository';
import { buildExtractiveAnswer, type ExtractiveReason } from './extractive-answer';
import {
  buildChatPrompt,
  type HistoryTurn,
  type PromptBudgetOptions,
  type PromptSource,
} from './prompt-builder';
import { HeuristicQuestionRewriter, ModelQuestionRewriter, type QuestionRewriter } from './question-rewriter';
import { retrieve, searchQueries } from './retrieval';
import { countTokens } from './tokens';

export interface ChatServiceOptions {
  /** Passages retrieved per question when the request and settings give none. @default 10 */
  defaultTopK?: number;
  /** How follow-ups are rewritten for retrieval. 'model' costs one extra model call. @default 'heuristic' */
  rewrite?: 'heuristic' | 'model';
  promptBudget?: PromptBudgetOptions;
  /** @default 4000 */
  maxQuestionChars?: number;
}

export interface ChatServiceDeps {
  search: SearchService;
  conversations: ConversationRepository;
  events: EventBus;
  /**
   * The chat model for the next question (settings may change between questions); null when none
   * is configured. May throw a CairnError for a broken configuration (e.g. a missing key).
   */
  resolveModel: () => Promise<ResolvedChatModel | null>;
  /** The top-K from settings, if any; a per-question k wins. */
  topK?: () => Promise<number | undefined>;
  logger?: Logger;
  options?: ChatServiceOptions;
}

interface Run {
  conversationId: string;
  controller: AbortController;
  settled: Promise<void>;
  /** Every delta sent as chat.token so far: the offset of the next one, and what chat.messages shows while it runs. */
  streamed: string;
}

interface Outcome {
  text: string;
  sources: PromptSource[];
  mode: ChatAnswer['mode'];
  incomplete: boolean;
  error: AppErrorData | null;
  usage: TokenUsage | null;
  model: string | null;
}

const MAX_TOP_K = 50;

export class ChatService {
  private readonly runs = new Map<string, Run>();
  private readonly logger: Logger;
  private readonly options: ChatServiceOptions;
  /** Answers left pending by the previous process are closed before anything is read. */
  private readonly ready: Promise<unknown>;

  constructor(private readonly deps: ChatServiceDeps) {
    this.logger = deps.logger ?? silentLogger();
    this.options = deps.options ?? {};
    this.ready = deps.conversations
      .closeInterrupted()
      .catch((error: unknown) => this.logger.error('closing interrupted answers failed', { error }));
  }

  async ask(input: {
    question: string;
    conversationId?: string;
    k?: number;
    searchQuery?: string;
  }): Promise<{ conversationId: string; messageId: string }> {
    const question = typeof input.question === 'string' ? input.question.trim() : '';
    if (!question) throw new CairnError('INVALID_ARGUMENT', 'The question is empty.');
    const maxChars = this.options.maxQuestionChars ?? 4000;
    if (question.length > maxChars)
      throw new CairnError('INVALID_ARGUMENT', `The question is longer than ${maxChars} characters.`);
    if (input.k !== undefined && (!Number.isInteger(input.k) || input.k < 1 || input.k > MAX_TOP_K)) {
      throw new CairnError('INVALID_ARGUMENT', `k must be a whole number from 1 to ${MAX_TOP_K}.`);
    }
    const searchQuery = typeof input.searchQuery === 'string' ? input.searchQuery.trim() : undefined;
    if (input.searchQuery !== undefined && !searchQuery)
      throw new CairnError('INVALID_ARGUMENT', 'The search query is empty.');
    if (searchQuery && searchQuery.length > maxChars)
      throw new CairnError('INVALID_ARGUMENT', `The search query is longer than ${maxChars} characters.`);
    await this.ready;
    const exchange = await this.deps.conversations.startExchange(question, input.conversationId);
    if (!exchange) throw new CairnError('NOT_FOUND', `No conversation ${input.conversationId}.`);
    const controller = new AbortController();
    const run: Run = {
      conversationId: exchange.conversationId,
      controller,
      settled: Promise.resolve(),
      streamed: '',
    };
    this.runs.set(exchange.answerMessageId, run);
    run.settled = this.answer(
      question,
      exchange.conversationId,
      exchange.answerMessageId,
      input.k,
      searchQuery,
      controller.signal,
    )
      .catch((error: unknown) => this.logger.error('chat answer crashed', { error }))
      .finally(() => this.runs.delete(exchange.answerMessageId));
    return { conversationId: exchange.conversationId, messageId: exchange.answerMessageId };
  }

  /** Stops a running answer; what was streamed so far is kept and marked incomplete. */
  cancel(messageId: string): void {
    this.runs.get(messageId)?.controller.abort();
  }

  async conversations(): Promise<ConversationView[]> {
    await this.ready;
    return this.deps.conversations.listConversations();
  }

  async messages(conversationId: string): Promise<ChatMessageView[]> {
    await this.ready;
    if (!(await this.deps.conversations.getConversation(conversationId)))
      throw new CairnError('NOT_FOUND', `No conversation ${conversationId}.`);
    const messages = await this.deps.conversations.listMessages(conversationId);
    // An answer still running is stored empty until it finishes; a client catching up after a broken event stream needs what was streamed.
    return messages.map((message) => {
      const run = message.role === 'assistant' && !message.answer ? this.runs.get(message.id) : undefined;
      return run ? { ...message, text: run.streamed } : message;
    });
  }

  async renameConversation(conversationId: string, title: string): Promise<ConversationView> {
    await this.ready;
    const clean = title.replace(/\s+/g, ' ').trim();
    if (!clean) throw new CairnError('INVALID_ARGUMENT', 'A conversation needs a title.');
    const renamed = await this.deps.conversations.renameConversation(conversationId, clean);
    if (!renamed) throw new CairnError('NOT_FOUND', `No conversation ${conversationId}.`);
    return renamed;
  }

  async removeConversation(conversationId: string): Promise<void> {
    await this.ready;
    const running = [...this.runs.values()].filter((run) => run.conversationId === conversationId);
    for (const run of running) run.controller.abort();
    await Promise.all(running.map((run) => run.settled));
    if (!(await this.deps.conversations.removeConversation(conversationId)))
      throw new CairnError('NOT_FOUND', `No conversation ${conversationId}.`);
  }

  /** Cancels running answers and waits until they are stored (call before closing the database). */
  async dispose(): Promise<void> {
    const running = [...this.runs.values()];
    for (const run of running) run.controller.abort();
    await Promise.all([this.ready, ...running.map((run) => run.settled)]);
  }

  private async answer(
    question: string,
    conversationId: string,
    messageId: string,
    k: number | undefined,
    searchQuery: string | undefined,
    signal: AbortSignal,
  ): Promise<void> {
    let outcome: Outcome;
    let retrievalQuery: string | null = null;
    let searchedFor: string[] = [];
    let secrets: string[] = [];
    try {
      const history = await this.deps.conversations.history(conversationId, messageId);
      let resolved: ResolvedChatModel | null = null;
      let configError: AppErrorData | null = null;
      try {
        resolved = await this.deps.resolveModel();
      } catch (error) {
        configError = toErrorData(error);
      }
      secrets = resolved?.secrets.filter((s) => s.length >= 6) ?? [];
      const rewriter: QuestionRewriter =
        resolved && this.options.rewrite === 'model'
          ? new ModelQuestionRewriter(resolved.model)
          : new HeuristicQuestionRewriter();
      // The user's own edit of "searched for" is searched as is: no rewrite, no fusing with the question.
      retrievalQuery = searchQuery ?? (await rewriter.rewrite(question, history, signal));
      searchedFor = searchQueries(searchQuery ? [searchQuery] : [retrievalQuery, question]);
      const topK = k ?? (await this.deps.topK?.()) ?? this.options.defaultTopK ?? 10;
      const hits = await retrieve(this.deps.search, searchedFor, topK, signal, this.logger);
      outcome = resolved
        ? await this.modelAnswer(
            question,
            history,
            hits,
            resolved.model,
            secrets,
            conversationId,
            messageId,
            signal,
          )
        : extractive(question, hits, 'no-model', configError);
    } catch (error) {
      outcome = {
        text: '',
        sources: [],
        mode: 'model',
        incomplete: true,
        error: toErrorData(error),
        usage: null,
        model: null,
      };
    }
    await this.finish(conversationId, messageId, outcome, retrievalQuery, searchedFor, secrets);
  }

  private async modelAnswer(
    question: string,
    history: HistoryTurn[],
    hits: SearchHit[],
    model: ChatModel,
    secrets: string[],
    conversationId: string,
    messageId: string,
    signal: AbortSignal,
  ): Promise<Outcome> {
    // One retry with half the sources when the provider counts more tokens than our estimate did.
    let candidates = hits;
    for (let attempt = 1; ; attempt++) {
      const prompt = buildChatPrompt({
        question,
        history,
        hits: candidates,
        contextWindow: model.contextWindow,
        options: this.options.promptBudget,
      });
      const messages: ChatMessage[] = prompt.messages.map((m) => ({
        ...m,
        content: scrub(m.content, secrets),
      }));
      let partial = '';
      try {
        const result = await model.stream(
          { messages, maxTokens: prompt.answerReserveTokens },
          (delta) => {
            partial += delta;
            const sent = scrub(delta, secrets);
            const run = this.runs.get(messageId);
            const offset = run?.streamed.length ?? 0;
            if (run) run.streamed += sent;
            this.deps.events.emit('chat.token', { conversationId, messageId, delta: sent, offset });
          },
          signal,
        );
        // Some OpenAI-compatible servers send no usage; then it is estimated with the same tokenizer.
        const usage = result.usage ?? estimateUsage(prompt.estimatedTokens, result.text);
        return {
          text: result.text,
          sources: prompt.sources,
          mode: 'model',
          incomplete: result.finishReason === 'length',
          error: null,
          usage,
          model: model.model,
        };
      } catch (thrown) {
        const error = toErrorData(thrown);
        if (error.code === 'CONTEXT_TOO_LONG' && !partial && attempt === 1 && prompt.sources.length > 1) {
          candidates = hits.slice(0, Math.floor(prompt.sources.length / 2));
          continue;
        }
        if (error.code === 'SOURCE_UNREACHABLE' && !partial)
          return extractive(question, hits, 'unreachable', error);
        this.logger.warn('chat answer failed', { code: error.code, received: partial.length });
        return {
          text: partial,
          sources: prompt.sources,
          mode: 'model',
          incomplete: true,
          error,
          usage: partial ? estimateUsage(prompt.estimatedTokens, partial) : null,
          model: model.model,
        };
      }
    }
  }

  private async finish(
    conversationId: string,
    messageId: string,
    outcome: Outcome,
    retrievalQuery: string | null,
    searchedFor: string[],
    secrets: string[],
  ): Promise<void> {
    const checked = validateCitations(scrub(outcome.text, secrets), outcome.sources.length);
    // A model's answer says which paragraph of each source it used; an extractive answer quoted its own.
    const sources = outcome.sources.map((source) =>
      toSourceCard(
        outcome.mode === 'model'
          ? { ...source, paragraph: paragraphUsedByAnswer(source, checked.text) }
          : source,
      ),
    );
    const answer: ChatAnswer = {
      conversationId,
      messageId,
      text: checked.text,
      citations: citedCards(sources, checked.cited),
      sources,
      droppedMarkers: checked.dropped,
      mode: outcome.mode,
      incomplete: outcome.incomplete,
      error: outcome.error,
      usage: outcome.usage,
      searchedFor: searchedFor.map((query) => scrub(query, secrets)),
    };
    try {
      await this.deps.conversations.completeAnswer(messageId, {
        answer,
        retrievalQuery,
        model: outcome.model,
      });
    } catch (error) {
      // The conversation may have been removed meanwhile; the answer is still delivered.
      this.logger.error('storing a chat answer failed', { error, messageId });
    }
    this.deps.events.emit('chat.done', answer);
  }
}

function extractive(
  question: string,
  hits: SearchHit[],
  reason: ExtractiveReason,
  error: AppErrorData | null,
): Outcome {
  const { text, sources } = buildExtractiveAnswer(question, hits, reason);
  return { text, sources, mode: 'extractive', incomplete: false, error, usage: null, model: null };
}

function estimateUsage(promptTokens: number, answer: string): TokenUsage {
  const completionTokens = countTokens(answer);
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}

/** Belt and braces: a secret value never leaves in a prompt or an answer, whatever a document says. */
function scrub(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join('[redacted]');
  return out;
}
