import { parseCommandArgs } from '../args';
import type { CliCommand } from '../command';
import { report } from '../output';
import { resolveConnection } from '../resolve-connection';

export const testCommand: CliCommand = {
  name: 'test',
  summary: "Check a connection's credentials and reachability",
  usage: 'cairn test <connection> [--json]',
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } }, { min: 1, max: 1, names: 'the <connection>' });
    const json = values.json ?? false;
    const { api } = await context.open();
    const found = await resolveConnection(api, positionals[0] ?? '');
    if (!found.ok) return report(context, json, found, () => '');
    return report(context, json, await api.connections.test({ id: found.value.id }), (value) => `OK "${found.value.name}": ${value.message}`);
  },
};
