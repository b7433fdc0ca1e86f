/**
 * The answer when no chat model can answer (none configured, or the endpoint unreachable): the
 * best-matching passages quoted verbatim, each cited, under a label saying plainly what it is.
 */
import type { SearchHit } from '@shared/models';
import { trimAroundBestParagraph, type PromptSource } from './prompt-builder';
import { ALL_RULES, type RankingRules } from '../search/ranking-rules';
import { analyze, identifierTokens } from '../text/analyzer';
import { matchScore, paragraphsWithHeadings, queryTerms, termWeights } from './text-match';

export type ExtractiveReason = 'no-model' | 'unreachable';

export interface ExtractiveOptions {
  /** @default 3 */
  maxPassages?: number;
  /** Longest quoted passage. @default 220 */
  maxPassageTokens?: number;
  /** Top hits whose paragraphs compete for the quotes. @default 6 */
  candidates?: number;
  /** The passage rules applied; every one in the app. Only the rule ablation switches one off. @default ALL_RULES */
  rules?: Readonly<RankingRules>;
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
  const keys = keyTerms(question);
  const sources: PromptSource[] = [];
  const quotes: string[] = [];
  for (const hit of choosePassages(hits, terms, keys, options)) {
    // The paragraph that answers (with the heading above it), grown to its neighbours while they
    // fit: run 3 of the real-documents eval quoted the paragraph alone and lost the answers that
    // sit one paragraph further (a config block, the note after an intro).
    const { excerpt, paragraph } = trimAroundBestParagraph(
      hit.text,
      terms,
      options.maxPassageTokens ?? 220,
      hit.weights,
    );
    if (!excerpt) continue;
    const n = sources.length + 1;
    sources.push({ n, hit: hit.hit, excerpt, paragraph });
    quotes.push(
      `${excerpt
        .split('\n')
        .map((line) => (line ? `> ${line}` : '>'))
        .join('\n')}\n>\n> — ${sourceName(hit.hit, paragraph.text)} [${n}]`,
    );
  }
  const body = quotes.length > 0 ? quotes.join('\n\n') : labels.empty;
  return { text: `${labels[reason]}\n\n${body}`, sources };
}

/**
 * The passages to quote: the top hits ranked by their best paragraph, each query term weighted by
 * its rarity among the candidates' paragraphs (an error code outweighs the title words every
 * chunk of the page shares). Search order breaks ties. A later hit of the same document keeps
 * only what an earlier one does not already quote (chunk overlap), and one that adds nothing goes.
 */
function choosePassages(
  hits: SearchHit[],
  terms: Set<string>,
  keys: string[],
  options: ExtractiveOptions,
): { hit: SearchHit; text: string; weights: ReturnType<typeof termWeights> }[] {
  const rules = options.rules ?? ALL_RULES;
  const candidates = withoutOverlap(hits.slice(0, options.candidates ?? 6));
  const paragraphs = candidates.flatMap((c) => paragraphsWithHeadings(c.text).map((p) => p.text));
  const idf = new Map(rules.rarePassageTerms ? termWeights(terms, paragraphs) : []);
  // The error code, configuration name or version the question names outweighs any common word;
  // a key's forms ("v740" and "740" for v7.4.0) count once.
  const sameKey = new Map<string, string>();
  const forms = keys.map((key) => keyTokens([key]).filter((token) => terms.has(token)));
  for (const tokens of rules.keyTermPassages ? forms : [])
    for (const token of tokens) {
      idf.set(token, KEY_TERM_SCORE);
      sameKey.set(token, tokens[0]!);
    }
  const weights = Object.assign(idf, { sameKey });
  const scored = candidates.map((candidate, rank) => ({
    ...candidate,
    weights,
    rank,
    score: Math.max(
      0,
      ...paragraphsWithHeadings(candidate.text).map((p) => matchScore(p.text, terms, weights)),
    ),
  }));
  // Search order still counts: a later hit must match clearly better to be quoted first.
  if (rules.passageReorder)
    scored.sort(
      (a, b) =>
        b.score / (1 + RANK_DISCOUNT * b.rank) - a.score / (1 + RANK_DISCOUNT * a.rank) || a.rank - b.rank,
    );
  return scored.slice(0, options.maxPassages ?? 3);
}

/** Words a user copies verbatim: identifiers, codes and numbers of three digits or more. */
const KEY_TERM = /^(?=.*\d)[a-z0-9]{3,}$|^[a-z0-9]+(?:[._-][a-z0-9]+)+$/;

/** Runs of Latin letters and digits, joined by identifier connectors (HERTZ_NO_NETPOLL, v7.4.0). */
const KEY_WORD = /[a-z0-9]+(?:[._-][a-z0-9]+)*/g;

/**
 * The identifiers, codes and numbers the question names (lower-cased, as typed). Taken from the
 * question itself, not from its content words: an identifier holding a stop word
 * (HERTZ_NO_NETPOLL=true, `no`) is one key, though the keyword query breaks its run at `no`.
 */
export function keyTerms(question: string): string[] {
  const words = question.normalize('NFKC').toLowerCase().match(KEY_WORD) ?? [];
  return [...new Set(words.filter((w) => KEY_TERM.test(w)))];
}

/** A paragraph holding an identifier/code the question names comes before any that lacks one. */
const KEY_TERM_SCORE = 1000;

/** The keyword tokens that stand for key terms: an identifier's whole token, a code's own. */
function keyTokens(keys: string[]): string[] {
  return keys.flatMap((key) => (/[._-]/.test(key) ? identifierTokens(key) : analyze(key)));
}

/** How much each step down the search ranking discounts a passage's match score. */
const RANK_DISCOUNT = 0.25;

/** Hits with the text another, better-ranked hit of the same document already covers cut away. */
function withoutOverlap(hits: SearchHit[]): { hit: SearchHit; text: string }[] {
  const kept: { hit: SearchHit; text: string }[] = [];
  for (const hit of hits) {
    let text = hit.text;
    for (const earlier of kept) {
      const a = earlier.hit;
      if (a.documentId === null || a.documentId !== hit.documentId) continue;
      if (a.charStart === null || a.charEnd === null || hit.charStart === null || hit.charEnd === null)
        continue;
      // This hit starts inside the earlier one: drop the shared lead (chunk overlap).
      if (hit.charStart >= a.charStart && hit.charStart < a.charEnd && hit.charEnd > a.charEnd) {
        // Offsets count the source slice; a split table's repeated header sits before it.
        const prefix = Math.max(0, text.length - (hit.charEnd - hit.charStart));
        text = text.slice(0, prefix) + text.slice(prefix + (a.charEnd - hit.charStart)).trimStart();
      } else if (hit.charStart >= a.charStart && hit.charEnd <= a.charEnd) {
        text = '';
      }
    }
    if (!text.trim()) continue;
    // The quoted hit carries its trimmed text, so the paragraph offsets point into what is shown.
    const trimmed =
      text.length === hit.text.length ? hit : { ...hit, text, charStart: hit.charEnd! - text.length };
    kept.push({ hit: trimmed, text });
  }
  return kept;
}

/**
 * "Title › Section", the title once even where the heading path starts with it (its H1), ending
 * with the heading the quoted paragraph sits under when the chunk holds several sections.
 */
export function sourceName(hit: Pick<SearchHit, 'title' | 'headingPath'>, paragraph = ''): string {
  const path = hit.headingPath.split(' > ').filter(Boolean);
  if (path[0] && path[0].trim() === hit.title.trim()) path.shift();
  const own = /^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$/m.exec(paragraph.split('\n')[0] ?? '')?.[1]?.trim();
  if (own && own !== hit.title.trim() && path.at(-1) !== own) path.push(own);
  return path.length > 0 ? `${hit.title} › ${path.join(' › ')}` : hit.title;
}
