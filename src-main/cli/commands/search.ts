import { fail } from '@shared/errors';
import {
  PLATFORMS,
  type DocumentExplanation,
  type Platform,
  type SearchFilters,
  type SearchHit,
  type SearchResponse,
  type SearchSort,
} from '@shared/models';
import { plainHeadingPath } from '@shared/plain-heading';
import { freshnessLine } from '@shared/time-ago';
import { reasonSentence } from '../../core/search/explain-sentences';
import { MAX_K } from '../../core/search/top-k';
import { parseDateFlags } from '../date-flags';
import { parseCommandArgs, parseIntegerFlag, UsageError } from '../args';
import type { CliCommand } from '../command';
import { report, terminalText } from '../output';

export const searchCommand: CliCommand = {
  name: 'search',
  summary:
    'Hybrid search over the index and direct-mode connections, one result per document ("exact phrase", -exclude); --explain says why a document ranked where it did or was not found',
  usage:
    'cairn search "<query>" [--k 10] [--sort relevance|modified] [--connection <name>]... [--platform <platform>]... [--kb <knowledge base>]... [--tag <tag>]... [--since <date|7d>] [--until <date>] [--explain <document title or id>] [--json]',
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(
      args,
      {
        k: { type: 'string' },
        connection: { type: 'string', multiple: true },
        platform: { type: 'string', multiple: true },
        kb: { type: 'string', multiple: true },
        tag: { type: 'string', multiple: true },
        since: { type: 'string' },
        until: { type: 'string' },
        sort: { type: 'string' },
        explain: { type: 'string' },
        json: { type: 'boolean' },
      },
      { min: 1, max: Infinity, names: 'the "<query>"' },
    );
    const query = positionals.join(' ');
    if (!query.trim()) throw new UsageError('The query is empty.');
    // Core returns at most MAX_K hits: a larger --k would be cut silently.
    const k = parseIntegerFlag(values.k, '--k', { min: 1, max: MAX_K, fallback: 10 });
    const platforms = values.platform ?? [];
    const unknown = platforms.find((p) => !(PLATFORMS as readonly string[]).includes(p));
    if (unknown !== undefined)
      throw new UsageError(`--platform must be one of ${PLATFORMS.join(', ')}, not "${unknown}".`);
    const dates = parseDateFlags(values.since, values.until);
    const sort = values.sort;
    if (sort !== undefined && sort !== 'relevance' && sort !== 'modified')
      throw new UsageError(`--sort must be relevance or modified, not "${sort}".`);
    if (values.explain !== undefined && !values.explain.trim())
      throw new UsageError('--explain needs a document title or id.');
    const json = values.json ?? false;
    // Names as typed: core resolves them (one request through a running instance).
    const filters: SearchFilters = {
      ...(values.connection?.length ? { connectionNames: values.connection } : {}),
      ...(platforms.length ? { platforms: platforms as Platform[] } : {}),
      ...(values.kb?.length ? { knowledgeBaseNames: values.kb } : {}),
      ...(values.tag?.length ? { tags: values.tag } : {}),
      ...dates,
    };
    const filtered = Object.keys(filters).length > 0;
    const { api } = await context.open({ readOnly: true });
    const request = {
      query,
      k,
      ...(filtered ? { filters } : {}),
      ...(sort ? { sort: sort as SearchSort } : {}),
    };
    if (values.explain !== undefined)
      return report(context, json, await api.search.explain({ ...request, document: values.explain }), (e) =>
        formatExplanation(e),
      );
    const result = await api.search.query(request);
    if (result.ok && result.value.noConnections)
      return report(context, json, fail('NOT_FOUND', NO_CONNECTIONS), () => '');
    return report(context, json, result, (response) => formatSearch(response, filtered));
  },
};

export const NO_CONNECTIONS =
  'Nothing to search yet: add a folder of notes with `cairn add-folder <path>` (or a platform with `cairn add <platform> …`), then run `cairn sync`.';

export function formatRanks(ranks: SearchHit['ranks']): string {
  const parts = (['vector', 'keyword', 'direct'] as const)
    .filter((channel) => ranks[channel] !== undefined)
    .map((channel) => `${channel} #${ranks[channel]}`);
  return parts.join(' · ');
}

const PASSAGE_CHARS = 300;
const MORE_PASSAGE_CHARS = 120;

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** One block per document (core groups the chunks): its best passage, then its other matching passages, shorter. */
export function formatSearch(response: SearchResponse, filtered = false, now = new Date()): string {
  const nameOf = (connectionId: string) => response.connectionNamesById?.[connectionId] ?? connectionId;
  const lines: string[] = [];
  response.documents.forEach(({ best, more }, index) => {
    lines.push(
      `${index + 1}. ${terminalText(best.title)} — ${terminalText(best.knowledgeBase || best.platform)} (${best.platform})  [${formatRanks(best.ranks)}]`,
      ...(best.headingPath ? [`   ${terminalText(plainHeadingPath(best.headingPath))}`] : []),
      ...(best.url ? [`   ${terminalText(best.url)}`] : []),
      ...(best.freshness ? [`   ${freshnessLine(best.freshness, now)}`] : []),
      `   ${oneLine(best.text, PASSAGE_CHARS)}`,
    );
    if (more.length > 0)
      lines.push(`   + ${more.length} more passage${more.length === 1 ? '' : 's'} in this document:`);
    for (const passage of more)
      lines.push(
        `     · ${passage.headingPath ? `${terminalText(plainHeadingPath(passage.headingPath))}: ` : ''}${oneLine(passage.text, MORE_PASSAGE_CHARS)}`,
      );
    lines.push('');
  });
  if (response.documents.length === 0)
    lines.push(filtered ? 'No results match these filters.' : 'No results.');
  for (const warning of response.warnings)
    lines.push(`warning: ${nameOf(warning.connectionId)}: ${warning.error.message}`);
  for (const skipped of response.liveSkipped ?? []) lines.push(`note: ${skipped.message}`);
  const count = response.documents.length;
  lines.push(
    `${count} document${count === 1 ? '' : 's'}${filtered ? ' (filtered)' : ''} in ${Math.round(response.tookMs)} ms`,
  );
  return lines.join('\n');
}

const REASON_MARK = '  ✗ ';

/** "Why not this document?" for a terminal: the outcome, what held it back, its words, its ranks, its best passage. */
export function formatExplanation(e: DocumentExplanation): string {
  const doc = e.document;
  const where = [doc.knowledgeBase, doc.connectionName].filter(Boolean).join(' · ');
  const outcome =
    e.outcome === 'shown'
      ? `shown at #${e.shownRank} of ${e.k}`
      : e.outcome === 'ranked-lower'
        ? `matched, ranked #${e.rank} (below the ${e.k} shown)`
        : 'not found';
  const channel = (
    name: string,
    c: DocumentExplanation['keyword'],
    scoreName: string,
    ran = true,
  ): string => {
    if (!ran) return `${name}: did not run`;
    const score = c.score === null ? `no ${scoreName}` : `${scoreName} ${c.score.toFixed(3)}`;
    const last = c.lastKeptScore === null ? '' : `; the last kept: ${c.lastKeptScore.toFixed(3)}`;
    return `${name}: ${c.rank === null ? `not in the top ${c.depth}` : `#${c.rank} of ${c.depth}`} (${score}${last})`;
  };
  const lines = [
    `"${doc.title}" (d${doc.id}) — ${where} (${doc.platform})`,
    `Query: "${e.query}" — ${outcome}`,
    ...e.reasons.map((reason) => REASON_MARK + reasonSentence(reason)),
    `Words: ${e.words.length === 0 ? '(none)' : e.words.map((w) => `${w.typed ?? w.word} ${w.found ? '✓' : '✗'}`).join(' · ')}`,
    channel('Keyword', e.keyword, 'BM25'),
    channel('Vector', e.vector, 'similarity', e.vector.ran),
  ];
  if (e.bestPassage)
    lines.push(
      `Best passage${e.bestPassage.headingPath ? `: ${plainHeadingPath(e.bestPassage.headingPath)}` : ''}`,
      `   ${oneLine(e.bestPassage.text, PASSAGE_CHARS)}`,
    );
  return lines.join('\n');
}
