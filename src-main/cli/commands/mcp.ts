/**
 * `cairn mcp`: Cairn as an MCP server on stdin/stdout, started by an AI tool (Claude Desktop,
 * Cursor, Cherry Studio). stdout carries only MCP messages; waiting notes go to stderr. It ends
 * when the tool closes stdin, on Ctrl-C or SIGTERM, and hands its data directory back cleanly.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CAIRN_VERSION } from '../../core/app/version';
import { CairnAccess } from '../../mcp/cairn-access';
import { createCairnMcpServer } from '../../mcp/mcp-server';
import { parseCommandArgs } from '../args';
import type { CliCommand } from '../command';
import { writeLine } from '../output';

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
    const access = new CairnAccess({ connect: (hooks) => context.connect(hooks) });
    const server = createCairnMcpServer(access, CAIRN_VERSION);
    // MCP over stdio is the process's own stdin/stdout by definition.
    const transport = new StdioServerTransport(process.stdin, process.stdout);
    const stopped = new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.stdin.once('end', stop);
      process.stdin.once('close', stop);
      transport.onclose = stop;
      process.once('SIGTERM', stop);
      context.signal.addEventListener('abort', stop, { once: true });
    });
    transport.onerror = (error) => writeLine(context.stderr, `cairn mcp: ${error.message}`);
    await server.connect(transport);
    await stopped;
    await server.close().catch(() => undefined);
    await access.dispose();
    return 0;
  },
};
