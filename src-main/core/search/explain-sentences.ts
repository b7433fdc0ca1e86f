/**
 * "Why not this document?" in English sentences: what the CLI and MCP print (the UI words the
 * same reasons from its own catalog). Apart from explain-document.ts so that `cairn search` loads
 * no database or analyzer code to print them.
 */
import type { DocumentExplanation, ExplainReason } from '@shared/models';

const FILTER_WORDS: Record<string, string> = {
  connection: 'the connection filter',
  platform: 'the platform filter',
  knowledgeBase: 'the knowledge base filter',
  tag: 'the tag filter',
  modified: 'the modified-date filter',
};

/** One reason as an English sentence (the CLI and MCP print these; the UI words them itself). */
export function reasonSentence(reason: ExplainReason): string {
  switch (reason.kind) {
    case 'not-indexed':
      return 'It has no indexed passages (empty, or not synced yet).';
    case 'connection-live':
      return `Its connection ${reason.connectionName} is searched live on its platform, not in the local index.`;
    case 'filter':
      return `Left out by ${FILTER_WORDS[reason.filter]} (${reason.value}).`;
    case 'no-query-words':
      return 'It holds none of the query words.';
    case 'keyword-depth':
      return `On words, none of its passages is among the ${reason.depth} best.`;
    case 'no-vector':
      return {
        'no-space': 'There is no semantic index yet: search ran on words only.',
        'no-embedder': 'The embedding model is not available: search ran on words only.',
        'embed-failed': 'The query could not be embedded: search ran on words only.',
        'not-embedded': 'Its passages are not in the semantic index yet (it is still being built).',
      }[reason.why];
    case 'similarity-floor':
      return `In meaning, its nearest passage (similarity ${reason.similarity.toFixed(3)}) is below the floor of ${reason.floor.toFixed(3)} under which matches count as noise.`;
    case 'vector-depth':
      return `In meaning, none of its passages is among the ${reason.depth} nearest.`;
    case 'vector-tail':
      return 'Matches in meaning alone were dropped: with this embedder they count only behind a keyword match, and no document matched on words.';
    case 'excluded':
      return `Left out by -${reason.word}: it contains "${reason.word}".`;
    case 'phrase-missing':
      return `None of its matching passages holds the exact phrase "${reason.phrase}".`;
    case 'per-document-cap':
      return `${reason.dropped} more of its passages were left out: each document shows at most ${reason.max}.`;
    case 'top-k':
      return `It ranked ${ordinal(reason.rank)} of ${reason.total} matching documents; only the top ${reason.k} are shown.`;
    case 'made-room-for-live':
      return 'It was in the top results but made room for the best result of a connection searched live.';
  }
}

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

function standing(name: string, rank: number | null, score: number | null, scoreName: string): string {
  const scored = score === null ? '' : ` (${scoreName} ${score.toFixed(3)})`;
  return rank === null ? `${name}: not a candidate${scored}` : `${name} #${rank}${scored}`;
}

export function summarizeExplanation(e: Omit<DocumentExplanation, 'summary'>): string {
  const head =
    e.outcome === 'shown'
      ? `"${e.document.title}" is result ${e.shownRank} of the ${e.k} shown for "${e.query}".`
      : e.outcome === 'ranked-lower'
        ? `"${e.document.title}" matched "${e.query}" but ranked ${ordinal(e.rank!)}, below the ${e.k} shown.`
        : `"${e.document.title}" was not found for "${e.query}".`;
  const held = e.words.filter((w) => w.found).map((w) => w.typed ?? w.word);
  const lacked = e.words.filter((w) => !w.found).map((w) => w.typed ?? w.word);
  const wordsLine = [
    held.length > 0 ? `It holds ${held.join(', ')}` : '',
    lacked.length > 0 ? `${held.length > 0 ? '; it lacks' : 'It lacks'} ${lacked.join(', ')}` : '',
  ].join('');
  const channels = [
    standing('keyword', e.keyword.rank, e.keyword.score, 'BM25'),
    e.vector.ran ? standing('vector', e.vector.rank, e.vector.score, 'similarity') : 'vector: did not run',
  ].join(' · ');
  return [head, ...e.reasons.map(reasonSentence), wordsLine ? `${wordsLine}.` : '', `Ranks: ${channels}.`]
    .filter(Boolean)
    .join(' ');
}
