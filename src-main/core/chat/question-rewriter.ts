/**
 * A follow-up like "how do I rotate it?" retrieves nothing useful on its own, so retrieval gets the
 * question rewritten with the conversation. Two ways: a cheap heuristic (measured in
 * question-rewriter.test.ts) and, opt-in, asking the chat model for a standalone question.
 */
import type { ChatModel } from './chat-model';
import type { HistoryTurn } from './prompt-builder';
import { queryTerms } from './text-match';

export interface QuestionRewriter {
  /** The query to retrieve with; the question itself when it needs no context. */
  rewrite(question: string, history: HistoryTurn[], signal?: AbortSignal): Promise<string>;
}

/** Words that point back into the conversation (English and Chinese). */
const ANAPHORA_EN =
  /\b(it|its|it's|they|them|their|theirs|this|that|these|those|there|he|him|his|she|her|one|ones|same|former|latter|above|also|else|instead|then)\b/i;
const FOLLOW_UP_START_EN =
  /^\s*(and|but|or|so|what about|how about|why not|why|what else|anything else|more|and then)\b/i;
const ANAPHORA_ZH =
  /(它|它们|他们|她们|这个|那个|这些|那些|这种|那种|这样|那样|上述|前者|后者|其中|该|此|其|那么|还有|另外|呢[？?]?\s*$)/u;
/** A question with fewer content terms than this is usually elliptical ("and on Linux?"). */
const SHORT_QUESTION_TERMS = 4;

/** True when the question leans on earlier turns (a pronoun, an elliptical start, or very short). */
export function looksLikeFollowUp(question: string): boolean {
  if (ANAPHORA_EN.test(question) || FOLLOW_UP_START_EN.test(question) || ANAPHORA_ZH.test(question))
    return true;
  // Han text counts as one word per two characters, whatever the analyzer's segmentation.
  const han = (question.match(/\p{Script=Han}/gu) ?? []).length;
  const latin = queryTerms(question.replace(/\p{Script=Han}+/gu, ' ')).size;
  return latin + Math.ceil(han / 2) < SHORT_QUESTION_TERMS;
}

/**
 * Prefixes the previous question when the new one looks like a follow-up. Only the question is
 * carried over, not the answer: answers are long and pulled retrieval toward what was already
 * found (see the measurement in question-rewriter.test.ts).
 */
export function heuristicRewrite(question: string, history: HistoryTurn[]): string {
  const previous = history.at(-1);
  if (!previous || !looksLikeFollowUp(question)) return question;
  return `${previous.question} ${question}`;
}

export class HeuristicQuestionRewriter implements QuestionRewriter {
  async rewrite(question: string, history: HistoryTurn[]): Promise<string> {
    return heuristicRewrite(question, history);
  }
}

export const REWRITE_INSTRUCTIONS =
  'Rewrite the last user question as one standalone search query that can be understood without the conversation. Resolve pronouns and omitted subjects from the conversation. Keep the language of the question. Reply with the query only.';

/**
 * Asks the chat model for a standalone question. Falls back to the heuristic when the model fails
 * or replies with something unusable, so a flaky endpoint never blocks retrieval.
 */
export class ModelQuestionRewriter implements QuestionRewriter {
  constructor(private readonly model: ChatModel) {}

  async rewrite(question: string, history: HistoryTurn[], signal?: AbortSignal): Promise<string> {
    if (history.length === 0) return question;
    const transcript = history
      .slice(-3)
      .map(
        (turn) =>
          `User: ${turn.question}\nAssistant: ${turn.answer.replace(/\s?\[\d+\]/g, '').slice(0, 600)}`,
      )
      .join('\n');
    try {
      const result = await this.model.stream(
        {
          messages: [
            { role: 'system', content: REWRITE_INSTRUCTIONS },
            { role: 'user', content: `Conversation:\n${transcript}\n\nLast user question: ${question}` },
          ],
          maxTokens: 120,
          temperature: 0,
        },
        () => {},
        signal,
      );
      const rewritten = result.text.trim().replace(/^["'“]|["'”]$/g, '');
      return rewritten && rewritten.length <= 500 ? rewritten : heuristicRewrite(question, history);
    } catch (error) {
      if (signal?.aborted) throw error;
      return heuristicRewrite(question, history);
    }
  }
}
