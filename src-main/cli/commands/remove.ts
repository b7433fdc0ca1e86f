import { parseCommandArgs } from '../args';
import type { CliCommand } from '../command';
import { report } from '../output';
import { resolveConnection } from '../resolve-connection';

export const removeCommand: CliCommand = {
  name: 'remove',
  summary: 'Remove a connection with its index and stored secrets',
  usage: 'cairn remove <connection> [--json]',
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } }, { min: 1, max: 1, names: 'the <connection>' });
    const json = values.json ?? false;
    const { api } = await context.open();
    const found = await resolveConnection(api, positionals[0] ?? '');
    if (!found.ok) return report(context, json, found, () => '');
    const view = found.value;
    const removed = await api.connections.remove({ id: view.id });
    const result = removed.ok ? { ok: true as const, value: { id: view.id, name: view.name } } : removed;
    return report(context, json, result, () => `Removed "${view.name}" with its ${view.documentCount} documents and ${view.chunkCount} chunks.`);
  },
};
