/**
 * A model's own tokenizer.json through the pure-JS @huggingface/tokenizers, with the two fidelity
 * fixes measured in docs/decisions/local-models.md, and the truncation the JS library lacks.
 *
 * - Precompiled (SentencePiece charsmap) normalisers run exactly (precompiled-normalizer.ts).
 * - BertNormalizer's Chinese-character spacing: the JS version walks UTF-16 code units, so astral
 *   CJK ideographs (Ext. B–F, e.g. 𠮷 in 𠮷野家) are never spaced and a whole word becomes one
 *   [UNK]. The Rust normaliser spaces them; so do we, before encoding.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { withPrecompiledStripped } from './precompiled-normalizer';

const ASTRAL_CJK =
  /([\u{20000}-\u{2A6DF}\u{2A700}-\u{2B73F}\u{2B740}-\u{2B81F}\u{2B820}-\u{2CEAF}\u{2F800}-\u{2FA1F}])/gu;

/** The special tokens a model's template puts around one text and around a (query, passage) pair. */
export interface SpecialFrame {
  head: number[];
  tail: number[];
  /** Between the two texts of a pair (e.g. [SEP], or </s></s> for XLM-R). */
  pairMid: number[];
  pairHead: number[];
  pairTail: number[];
  padId: number;
}

export interface ModelTokenizer {
  /** Token ids of `text` without special tokens. */
  ids(text: string): number[];
  frame: SpecialFrame;
  /** Tokens as strings (tests, diagnostics). */
  tokens(text: string): string[];
}

interface TokenizerJson {
  normalizer?: { type?: string; handle_chinese_chars?: boolean } | null;
}

function indexOfRun(haystack: number[], needle: number[], from = 0): number {
  outer: for (let i = from; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** Reads the template by encoding marker texts: works for BERT, RoBERTa/XLM-R and Qwen post-processors alike. */
function specialFrame(encode: (text: string, pair?: string) => number[], plain: (t: string) => number[]) {
  const a = plain('a');
  const b = plain('b');
  const single = encode('a');
  const at = indexOfRun(single, a);
  const pair = encode('a', 'b');
  const atA = indexOfRun(pair, a);
  const atB = indexOfRun(pair, b, atA + a.length);
  if (at < 0 || atA < 0 || atB < 0)
    throw new Error('cannot read the special-token template of this tokenizer');
  return {
    head: single.slice(0, at),
    tail: single.slice(at + a.length),
    pairHead: pair.slice(0, atA),
    pairMid: pair.slice(atA + a.length, atB),
    pairTail: pair.slice(atB + b.length),
  };
}

export function loadModelTokenizer(dir: string, file = 'tokenizer.json'): ModelTokenizer {
  const raw = JSON.parse(readFileSync(join(dir, file), 'utf8')) as TokenizerJson;
  let config: Record<string, unknown> = {};
  try {
    config = JSON.parse(readFileSync(join(dir, 'tokenizer_config.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    // tokenizer_config.json is optional: tokenizer.json alone describes the pipeline.
  }
  const { json, pre } = withPrecompiledStripped(raw);
  const bert = raw.normalizer?.type === 'BertNormalizer' && raw.normalizer.handle_chinese_chars !== false;
  const prepare = (text: string) => (bert ? pre(text).replace(ASTRAL_CJK, ' $1 ') : pre(text));
  const tokenizer = new Tokenizer(json, config);
  const plain = (text: string) => tokenizer.encode(prepare(text), { add_special_tokens: false }).ids;
  const withSpecials = (text: string, pair?: string) =>
    tokenizer.encode(prepare(text), {
      add_special_tokens: true,
      ...(pair === undefined ? {} : { text_pair: prepare(pair) }),
    }).ids;
  const frame = specialFrame(withSpecials, plain);
  const padId =
    tokenizer.token_to_id('[PAD]') ??
    tokenizer.token_to_id('<pad>') ??
    tokenizer.token_to_id('<|endoftext|>') ??
    0;
  return {
    ids: plain,
    tokens: (text) => tokenizer.tokenize(prepare(text)),
    frame: { ...frame, padId },
  };
}
