import { fail } from '@shared/errors';
import type { SearchHit, SearchResponse } from '@shared/models';
import { MAX_K } from '../../core/search/query-text';
import { parseCommandArgs, parseIntegerFlag, UsageError } from '../args';
import type { CliCommand } from '../command';
import { report } from '../output';
import { resolveConnection } from '../resolve-connection';

export const searchCommand: CliCommand = {
  name: 'search',
  summary: 'Hybrid search over the index and direct-mode connections, one result per document',
  usage: 'cairn search "<query>" [--k 10] [--connection <name>]... [--json]',
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(
      args,
      { k: { type: 'string' }, connection: { type: 'string', multiple: true }, json: { type: 'boolean' } },
      { min: 1, max: Infinity, names: 'the "<query>"' },
    );
    const query = positionals.join(' ');
    if (!query.trim()) throw new UsageError('The query is empty.');
    // Core returns at most MAX_K hits: a larger --k would be cut silently.
    const k = parseIntegerFlag(values.k, '--k', { min: 1, max: MAX_K, fallback: 10 });
    const json = values.json ?? false;
    const { api } = await context.open();
    const existing = await api.connections.list();
    if (existing.ok && existing.value.length === 0)
      return report(context, json, fail('NOT_FOUND', NO_CONNECTIONS), () => '');
    const connectionIds: string[] = [];
    for (const name of values.connection ?? []) {
      const found = await resolveConnection(api, name);
      if (!found.ok) return report(context, json, found, () => '');
      connectionIds.push(found.value.id);
    }
    const result = await api.search.query({ query, k, ...(connectionIds.length ? { connectionIds } : {}) });
    const listed = result.ok && result.value.warnings.length > 0 ? await api.connections.list() : null;
    const names = new Map(listed?.ok ? listed.value.map((view) => [view.id, view.name]) : []);
    return report(context, json, result, (response) => formatSearch(response, names));
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
export function formatSearch(response: SearchResponse, names: Map<string, string> = new Map()): string {
  const lines: string[] = [];
  response.documents.forEach(({ best, more }, index) => {
    lines.push(
      `${index + 1}. ${best.title} — ${best.knowledgeBase || best.platform} (${best.platform})  [${formatRanks(best.ranks)}]`,
      ...(best.headingPath ? [`   ${best.headingPath}`] : []),
      ...(best.url ? [`   ${best.url}`] : []),
      `   ${oneLine(best.text, PASSAGE_CHARS)}`,
    );
    if (more.length > 0)
      lines.push(`   + ${more.length} more passage${more.length === 1 ? '' : 's'} in this document:`);
    for (const passage of more)
      lines.push(
        `     · ${passage.headingPath ? `${passage.headingPath}: ` : ''}${oneLine(passage.text, MORE_PASSAGE_CHARS)}`,
      );
    lines.push('');
  });
  if (response.documents.length === 0) lines.push('No results.');
  for (const warning of response.warnings)
    lines.push(
      `warning: ${names.get(warning.connectionId) ?? warning.connectionId}: ${warning.error.message}`,
    );
  const count = response.documents.length;
  lines.push(`${count} document${count === 1 ? '' : 's'} in ${Math.round(response.tookMs)} ms`);
  return lines.join('\n');
}
