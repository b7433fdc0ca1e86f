import type { CliCommand } from '../command';
import { report } from '../output';
import { runOnConnection } from '../resolve-connection';

export const removeCommand: CliCommand = {
  name: 'remove',
  summary: 'Remove a connection with its index and stored secrets',
  usage: 'cairn remove <connection> [--json]',
  run(args, context) {
    return runOnConnection(args, context, async (view, api, json) => {
      const removed = await api.connections.remove({ id: view.id });
      const result = removed.ok ? { ok: true as const, value: { id: view.id, name: view.name } } : removed;
      return report(
        context,
        json,
        result,
        () =>
          `Removed "${view.name}" with its ${view.documentCount} documents and ${view.chunkCount} chunks.`,
      );
    });
  },
};
