/**
 * The `cairn mcp` server on stdin/stdout. stdout carries only MCP messages; waiting notes go to
 * stderr. It ends when the tool closes stdin, on Ctrl-C or SIGTERM, and hands its data directory
 * back cleanly.
 */
import { CAIRN_VERSION } from '../../core/app/version';
import { CairnAccess } from '../../mcp/cairn-access';
import { createCairnMcpServer } from '../../mcp/mcp-server';
import { McpStdioTransport } from '../../mcp/stdio-transport';
import type { CliContext } from '../command';
import { writeLine } from '../output';

export async function serveMcpOverStdio(context: CliContext): Promise<number> {
  const access = new CairnAccess({ connect: (hooks) => context.connect(hooks) });
  const server = createCairnMcpServer(access, CAIRN_VERSION);
  // MCP over stdio is the process's own stdin/stdout by definition. Oversized and malformed lines
  // get a JSON-RPC error and the server goes on (stdio-transport.ts).
  const transport = new McpStdioTransport(process.stdin, process.stdout);
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
}
