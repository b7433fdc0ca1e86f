/**
 * The answer when no chat model can answer (none configured, or the endpoint unreachable): the
 * best-matching passages quoted verbatim, each cited, under a label saying plainly what it is.
 */
import type { SearchHit } from '@shared/models';
import { trimAroundBestParagraph, type PromptSource } from './prompt-builder';
import { queryTerms } from './text-match';

export type ExtractiveReason = 'no-model' | 'unreachable';

export interface ExtractiveOptions {
  /** @default 3 */
  maxPassages?: number;
  /** Longest quoted passage. @default 220 */
  maxPassageTokens?: number;
}

export interface ExtractiveAnswer {
  text: string;
  sources: PromptSource[];
}

const LABELS = {
  en: {
    'no-model':
      '**Extractive answer**: no chat model is configured, so these are the passages from your documents that best match the question, quoted as written.',
    unreachable:
      '**Extractive answer**: the chat model could not be reached, so these are the passages from your documents that best match the question, quoted as written.',
    empty: 'No passage in your documents matches this question.',
  },
  zh: {
    'no-model': '**摘录式回答**：未配置对话模型，以下是文档中与问题最相关的原文段落。',
    unreachable: '**摘录式回答**：无法连接对话模型，以下是文档中与问题最相关的原文段落。',
    empty: '文档中没有与该问题匹配的段落。',
  },
} as const;

export function buildExtractiveAnswer(
  question: string,
  hits: SearchHit[],
  reason: ExtractiveReason,
  options: ExtractiveOptions = {},
): ExtractiveAnswer {
  const labels = /\p{Script=Han}/u.test(question) ? LABELS.zh : LABELS.en;
  const terms = queryTerms(question);
  const sources: PromptSource[] = [];
  const quotes: string[] = [];
  for (const hit of hits.slice(0, options.maxPassages ?? 3)) {
    const { excerpt, paragraph } = trimAroundBestParagraph(hit.text, terms, options.maxPassageTokens ?? 220);
    if (!excerpt) continue;
    const n = sources.length + 1;
    sources.push({ n, hit, excerpt, paragraph });
    const where = hit.headingPath ? `${hit.title} › ${hit.headingPath}` : hit.title;
    quotes.push(
      `${excerpt
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n')}\n>\n> — ${where} [${n}]`,
    );
  }
  const body = quotes.length > 0 ? quotes.join('\n\n') : labels.empty;
  return { text: `${labels[reason]}\n\n${body}`, sources };
}
