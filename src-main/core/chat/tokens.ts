/**
 * Token counting for the prompt budget. gpt-tokenizer's o200k_base is OpenAI's encoding; Qwen and
 * DeepSeek use their own vocabularies, so counts are an estimate there (within ~30% on CJK text
 * in spot checks) and the budget keeps a margin below the context window for that reason.
 */
import { createRequire } from 'node:module';

type GptTokenizer = typeof import('gpt-tokenizer');
let tokenizer: GptTokenizer | undefined;

/**
 * gpt-tokenizer, loaded with the first chat prompt instead of at start: its module and 200k-entry
 * Map cost a one-shot `cairn search` ~1 s of CPU and ~67 MB it never used (docs/decisions/cli-startup.md).
 * Synchronous (require), because counting is.
 */
function gpt(): GptTokenizer {
  tokenizer ??= createRequire(import.meta.url)('gpt-tokenizer') as GptTokenizer;
  return tokenizer;
}

// Documents may contain strings like "<|endoftext|>"; they are text, not control tokens
// (gpt-tokenizer throws on them by default).
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

export function countTokens(text: string): number {
  return text ? gpt().countTokens(text, AS_PLAIN_TEXT) : 0;
}

/** The longest prefix of `text` within `maxTokens` tokens (cut on a token boundary). */
export function truncateToTokens(text: string, maxTokens: number): string {
  if (maxTokens <= 0) return '';
  const tokens = gpt().encode(text, AS_PLAIN_TEXT);
  if (tokens.length <= maxTokens) return text;
  // Dropping a trailing replacement character avoids half a multi-byte CJK character.
  return gpt()
    .decode(tokens.slice(0, maxTokens))
    .replace(/\uFFFD+$/u, '');
}
