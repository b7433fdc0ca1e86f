import { parseCommandArgs, parseModeArgument } from '../args';
import type { CliCommand } from '../command';
import { report } from '../output';
import { resolveConnection } from '../resolve-connection';

export const modeCommand: CliCommand = {
  name: 'mode',
  summary: 'Switch a connection between rag (indexed) and direct (live search)',
  usage: 'cairn mode <connection> <rag|direct> [--json]',
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(
      args,
      { json: { type: 'boolean' } },
      { min: 2, max: 2, names: 'the <connection> and the mode (rag or direct)' },
    );
    const mode = parseModeArgument(positionals[1], 'The mode');
    const json = values.json ?? false;
    const { api } = await context.open();
    const found = await resolveConnection(api, positionals[0] ?? '');
    if (!found.ok || !mode) return report(context, json, found, () => '');
    return report(context, json, await api.connections.setMode({ id: found.value.id, mode }), (view) =>
      view.mode === 'rag'
        ? `"${view.name}" is now in RAG mode: it is indexed and synced on schedule.`
        : `"${view.name}" is now in direct mode: searched live; its index stays on disk until you remove the connection.`,
    );
  },
};
