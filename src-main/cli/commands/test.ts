import type { CliCommand } from '../command';
import { report } from '../output';
import { runOnConnection } from '../resolve-connection';

export const testCommand: CliCommand = {
  name: 'test',
  summary: "Check a connection's credentials and reachability",
  usage: 'cairn test <connection> [--json]',
  run(args, context) {
    return runOnConnection(args, context, async (view, api, json) =>
      report(
        context,
        json,
        await api.connections.test({ id: view.id }),
        (value) => `OK "${view.name}": ${value.message}`,
      ),
    );
  },
};
