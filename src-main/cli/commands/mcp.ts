/**
 * `cairn mcp`: Cairn as an MCP server on stdin/stdout, started by an AI tool (Claude Desktop,
 * Cursor, Cherry Studio). The server (mcp-stdio.ts) is loaded only when this command runs: the
 * MCP SDK takes longer to load than the rest of the CLI, and every other command would pay for it.
 */
import { parseCommandArgs } from '../args';
import type { CliCommand } from '../command';

export const mcpCommand: CliCommand = {
  name: 'mcp',
  summary: 'Serve your knowledge to AI tools over MCP (stdio): search, fetch, list_sources, ask',
  usage: [
    'cairn mcp',
    "Started by an AI tool, not by hand: add it to the tool's MCP servers as the command `npx cairn mcp`",
    "(or the installed app's `cairn` binary with the argument `mcp`). It answers through the running Cairn",
    'app or `cairn serve` when one runs, and opens the data directory itself when none does.',
  ].join('\n'),
  async run(args, context) {
    parseCommandArgs(args, {}, { min: 0, max: 0, names: '' });
    const { serveMcpOverStdio } = await import('./mcp-stdio');
    return serveMcpOverStdio(context);
  },
};
