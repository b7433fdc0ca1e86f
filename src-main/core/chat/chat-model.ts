/** The seam between the chat service and whatever model answers (OpenAI-compatible today). */
import type { TokenUsage } from '@shared/models';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatCompletionRequest {
  messages: ChatMessage[];
  /** Upper bound on the answer's length, reserved in the prompt budget. */
  maxTokens?: number;
  /** @default 0.2 (answers should stay close to the sources) */
  temperature?: number;
}

export interface ChatCompletionResult {
  text: string;
  usage: TokenUsage | null;
  /** 'stop' for a finished answer, 'length' when cut by maxTokens. */
  finishReason: string;
}

export interface ChatModel {
  readonly model: string;
  /** Tokens the model accepts, prompt plus answer. */
  readonly contextWindow: number;
  /**
   * Streams an answer, calling onDelta for each piece of text as it arrives. Throws CairnError
   * (AUTH_INVALID, MODEL_NOT_FOUND, RATE_LIMITED, TIMEOUT, CONTEXT_TOO_LONG, SOURCE_UNREACHABLE,
   * CANCELLED, ...) on failure; text already delivered through onDelta is the partial answer.
   */
  stream(
    request: ChatCompletionRequest,
    onDelta: (delta: string) => void,
    signal?: AbortSignal,
  ): Promise<ChatCompletionResult>;
}

/** A chat model plus the secret values that must never appear in a prompt or an answer. */
export interface ResolvedChatModel {
  model: ChatModel;
  secrets: string[];
}
