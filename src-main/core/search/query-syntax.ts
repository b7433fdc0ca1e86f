/**
 * The operators a person types into a search box, as web search engines read them:
 * - `"exact phrase"` (also “…”, 「…」, 『…』): a passage is shown only when it holds the phrase as
 *   written (case, width and spacing aside). Its words stay in the query, so they are ranked too.
 * - `-word` / `-"some phrase"`: a document that holds the word (a whole word for Latin text, the
 *   characters for Chinese) or the phrase anywhere, title included, is left out. Excluded words
 *   are taken out of the query: searching for them would only bring back what is dropped.
 *
 * A minus counts only at the start of a word ("-draft"), so "store-pool-size" and "2026-03-01"
 * stay words. The app, `cairn search` and the MCP `search` tool all send the raw text; core reads
 * it here, once.
 */
import type { Db } from '../db/database';
import { squash } from './phrase-rerank';

export interface QuerySyntax {
  /** The query to rank with: exclusions removed, quotes dropped, spaces collapsed. */
  text: string;
  /** Quoted phrases a shown passage must hold (as typed, trimmed). */
  phrases: string[];
  /** Words and phrases whose documents are left out (as typed, trimmed). */
  excluded: string[];
}

/** Opening quote → its closing quote. */
const QUOTES: Record<string, string> = { '"': '"', '“': '”', '「': '」', '『': '』', '”': '”' };
const OPENING = /["“”「『]/;

/** The query's operators, read left to right. Unbalanced quotes are read as ordinary characters. */
export function parseQuerySyntax(raw: string): QuerySyntax {
  const phrases: string[] = [];
  const excluded: string[] = [];
  const kept: string[] = [];
  let i = 0;
  const atWordStart = (at: number) => at === 0 || /\s/.test(raw[at - 1]!);
  while (i < raw.length) {
    const char = raw[i]!;
    const minus = (char === '-' || char === '－') && atWordStart(i);
    const quoteAt = minus ? i + 1 : i;
    const quote = raw[quoteAt];
    if (quote !== undefined && OPENING.test(quote) && (minus || atWordStart(i) || !/\w/.test(raw[i - 1]!))) {
      const close = raw.indexOf(QUOTES[quote]!, quoteAt + 1);
      const phrase =
        close === -1
          ? ''
          : raw
              .slice(quoteAt + 1, close)
              .replace(/\s+/g, ' ')
              .trim();
      if (close !== -1 && phrase) {
        if (minus) excluded.push(phrase);
        else {
          phrases.push(phrase);
          kept.push(phrase);
        }
        i = close + 1;
        continue;
      }
    }
    if (minus && raw[i + 1] !== undefined && /[\p{L}\p{N}]/u.test(raw[i + 1]!)) {
      const end = raw.slice(i + 1).search(/\s/);
      const word = end === -1 ? raw.slice(i + 1) : raw.slice(i + 1, i + 1 + end);
      excluded.push(word);
      i += 1 + word.length;
      continue;
    }
    kept.push(char);
    i += 1;
  }
  return {
    text: kept.join('').replace(/\s+/g, ' ').trim(),
    phrases: unique(phrases),
    excluded: unique(excluded),
  };
}

function unique(list: string[]): string[] {
  const seen = new Set<string>();
  return list.filter((item) => {
    const key = item.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Whether the query uses an operator (then the pipeline filters its candidates). */
export function hasOperators(syntax: QuerySyntax): boolean {
  return syntax.phrases.length > 0 || syntax.excluded.length > 0;
}

/** The first required phrase `text` lacks, or null when it holds all of them. */
export function missingPhrase(text: string, phrases: readonly string[]): string | null {
  const squashed = squash(text);
  return phrases.find((phrase) => !squashed.includes(squash(phrase))) ?? null;
}

const LATIN_WORD = /^[\p{Script=Latin}\p{N}_]/u;

/**
 * A Postgres regular expression (for `~*`) that finds an excluded word or phrase: whole words
 * for Latin text ("-raft" leaves "Raftstore" alone), the characters themselves for Chinese, which
 * has no spaces between words.
 */
export function exclusionPattern(excluded: string): string {
  const escaped = excluded
    .normalize('NFKC')
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/\s+/g, '\\s+');
  const before = LATIN_WORD.test(excluded) ? '(^|[^[:alnum:]_])' : '';
  const after = /[\p{Script=Latin}\p{N}_]$/u.test(excluded) ? '([^[:alnum:]_]|$)' : '';
  return `${before}${escaped}${after}`;
}

/** The same test in JavaScript, for live hits (their title and snippet are all there is). */
export function holdsExcluded(text: string, excluded: string): boolean {
  return new RegExp(exclusionPattern(excluded).replace(/\[:alnum:\]/g, '\\p{L}\\p{N}'), 'iu').test(
    text.normalize('NFKC'),
  );
}

/** Why the operators removed a candidate. */
export type OperatorDrop = { kind: 'excluded'; word: string } | { kind: 'phrase-missing'; phrase: string };

/** A candidate's chunk as the operators read it (search-hits.ts ChunkRow). */
interface OperatorRow {
  document_id: string | number;
  title: string;
  heading_path: string;
  content: string;
}

/** A live candidate as the operators read it (search-hits.ts LiveHitRef). */
interface OperatorLive {
  result: { hits: readonly { title: string; snippet?: string | null }[] };
  index: number;
}

/**
 * The candidates the query's operators remove, by key: a document holding an excluded word (read
 * from its whole stored text and title, one statement for all candidates), a passage without a
 * required phrase (its title, section and text). A live hit is judged by its title and snippet.
 */
export async function applyOperators(
  db: Pick<Db, 'query'>,
  syntax: QuerySyntax,
  candidates: readonly { key: string }[],
  chunks: ReadonlyMap<number, OperatorRow>,
  live: ReadonlyMap<string, OperatorLive>,
): Promise<Map<string, OperatorDrop>> {
  const dropped = new Map<string, OperatorDrop>();
  if (!hasOperators(syntax) || candidates.length === 0) return dropped;
  const documentIds = [...new Set([...chunks.values()].map((row) => Number(row.document_id)))];
  const excludedBy = await documentsHolding(db, documentIds, syntax.excluded);
  for (const { key } of candidates) {
    const chunkId = key.startsWith('chunk:') ? Number(key.slice('chunk:'.length)) : null;
    const row = chunkId === null ? undefined : chunks.get(chunkId);
    let text: string;
    if (row) {
      const word = excludedBy.get(Number(row.document_id));
      if (word !== undefined) {
        dropped.set(key, { kind: 'excluded', word });
        continue;
      }
      text = `${row.title}\n${row.heading_path}\n${row.content}`;
    } else {
      const entry = live.get(key);
      const hit = entry?.result.hits[entry.index];
      if (!hit) continue;
      text = `${hit.title}\n${hit.snippet ?? ''}`;
      const word = syntax.excluded.find((excluded) => holdsExcluded(text, excluded));
      if (word !== undefined) {
        dropped.set(key, { kind: 'excluded', word });
        continue;
      }
    }
    const phrase = missingPhrase(text, syntax.phrases);
    if (phrase !== null) dropped.set(key, { kind: 'phrase-missing', phrase });
  }
  return dropped;
}

/** Of these documents, those whose title or text holds one of `excluded`, with the first it holds. */
export async function documentsHolding(
  db: Pick<Db, 'query'>,
  documentIds: readonly number[],
  excluded: readonly string[],
): Promise<Map<number, string>> {
  if (documentIds.length === 0 || excluded.length === 0) return new Map();
  const rows = await db.query<{ id: string | number; word: number }>(
    `SELECT d.id, (SELECT min(p.n) FROM unnest($2::text[]) WITH ORDINALITY AS p(pattern, n)
                   WHERE d.title ~* p.pattern OR d.content ~* p.pattern) AS word
     FROM documents d WHERE d.id = ANY($1::bigint[])`,
    [documentIds, excluded.map(exclusionPattern)],
  );
  const holding = new Map<number, string>();
  for (const row of rows.rows)
    if (row.word !== null) holding.set(Number(row.id), excluded[Number(row.word) - 1]!);
  return holding;
}
