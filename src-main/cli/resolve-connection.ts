import type { CairnApi } from '@shared/contract';
import type { Result } from '@shared/errors';
import { fail, ok } from '@shared/errors';
import type { ConnectionView } from '@shared/models';
import { parseCommandArgs } from './args';
import type { CliContext } from './command';
import { report } from './output';

/** What a person typed: an id, else an exact name, else a unique case-insensitive name. */
export async function resolveConnection(api: CairnApi, idOrName: string): Promise<Result<ConnectionView>> {
  const listed = await api.connections.list();
  if (!listed.ok) return listed;
  const all = listed.value;
  const exact = all.find((c) => c.id === idOrName) ?? all.find((c) => c.name === idOrName);
  if (exact) return ok(exact);
  const folded = all.filter((c) => c.name.toLowerCase() === idOrName.toLowerCase());
  if (folded.length === 1 && folded[0]) return ok(folded[0]);
  if (folded.length > 1)
    return fail(
      'INVALID_ARGUMENT',
      `"${idOrName}" matches several connections (${folded.map((c) => c.name).join(', ')}); use the exact name or the id.`,
    );
  const names = all.map((c) => c.name);
  return fail(
    'NOT_FOUND',
    `No connection named "${idOrName}".${names.length ? ` Connections: ${names.join(', ')}.` : ' There are no connections yet.'}`,
  );
}

/**
 * The common shape `cairn <verb> <connection> [--json]`: parses the arguments, opens Cairn and
 * resolves the connection (reporting a missing or ambiguous one), then hands it to `act`.
 */
export async function runOnConnection(
  args: string[],
  context: CliContext,
  act: (found: ConnectionView, api: CairnApi, json: boolean) => Promise<number>,
): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    { json: { type: 'boolean' } },
    { min: 1, max: 1, names: 'the <connection>' },
  );
  const json = values.json ?? false;
  const { api } = await context.open();
  const found = await resolveConnection(api, positionals[0] ?? '');
  if (!found.ok) return report(context, json, found, () => '');
  return act(found.value, api, json);
}
