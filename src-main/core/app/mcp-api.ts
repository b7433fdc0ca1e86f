/**
 * The contract's `mcp` domain: how AI tools start `cairn mcp` for this data directory (the
 * Settings screen shows it ready to paste), and a Test that starts it exactly that way through the
 * official MCP client and runs one search: the same path Claude Desktop or Cursor would take,
 * answered by this running instance over its socket.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { CairnApi } from '@shared/contract';
import type { McpSetup, McpTestReport } from '@shared/models';
import { CairnError, toResult } from '../errors';
import type { DocumentReader } from '../index/document-reader';
import { defaultDataDir } from './data-dir';
import { packageRoot } from './package-root';

/** The command that runs the `cairn` CLI; `mcp` and the data directory are appended. */
export interface McpLaunch {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** From a source checkout (npm install, `cairn serve`): `npx --prefix <checkout> cairn`, which works from any folder. */
export function checkoutLaunch(): McpLaunch {
  return {
    command: 'npx',
    args: ['--prefix', packageRoot(), 'cairn'],
  };
}

export function mcpSetup(launch: McpLaunch, dataDir: string): McpSetup {
  const args = [...launch.args, ...(dataDir === defaultDataDir() ? [] : ['--data-dir', dataDir]), 'mcp'];
  const env = launch.env ?? {};
  const server = { command: launch.command, args, ...(Object.keys(env).length ? { env } : {}) };
  return {
    command: launch.command,
    args,
    env,
    json: JSON.stringify({ mcpServers: { cairn: server } }, null, 2),
    claudeConfigPath:
      process.platform === 'darwin'
        ? join(homedir(), 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json')
        : process.platform === 'win32'
          ? join(
              process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'),
              'Claude',
              'claude_desktop_config.json',
            )
          : join(homedir(), '.config', 'Claude', 'claude_desktop_config.json'),
  };
}

export function mcpApi(deps: {
  launch: McpLaunch;
  dataDir: string | null;
  documents: DocumentReader;
}): CairnApi['mcp'] {
  const setup = () => {
    if (!deps.dataDir)
      throw new CairnError(
        'UNSUPPORTED',
        'This Cairn has no data directory (in memory): an AI tool cannot reach it.',
      );
    return mcpSetup(deps.launch, deps.dataDir);
  };
  return {
    setup: () => toResult(async () => setup()),
    test: (input) =>
      toResult(async () => {
        const config = setup();
        const query =
          input.query?.trim() || (await deps.documents.list({ limit: 1 })).documents[0]?.title || 'Cairn';
        return runMcpSearch(config, query);
      }),
  };
}

/** Starts the configured `cairn mcp` through the SDK's client over stdio, lists its tools, runs one search. */
async function runMcpSearch(config: McpSetup, query: string): Promise<McpTestReport> {
  // Loaded only when the Test runs: nothing else in core needs the MCP client.
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport, getDefaultEnvironment } =
    await import('@modelcontextprotocol/sdk/client/stdio.js');
  const started = Date.now();
  const transport = new StdioClientTransport({
    command: config.command,
    args: config.args,
    env: { ...getDefaultEnvironment(), ...config.env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (part: Buffer) => (stderr = (stderr + part.toString()).slice(-2_000)));
  const client = new Client({ name: 'cairn-settings-test', version: '1.0.0' });
  try {
    await client.connect(transport, { timeout: 120_000 });
    const tools = (await client.listTools(undefined, { timeout: 60_000 })).tools.map((tool) => tool.name);
    const result = (await client.callTool({ name: 'search', arguments: { query } }, undefined, {
      timeout: 120_000,
    })) as {
      isError?: boolean;
      content: { text?: string }[];
      structuredContent?: { results?: { title: string }[] };
    };
    if (result.isError)
      throw new CairnError('INTERNAL', `cairn mcp answered with an error: ${result.content[0]?.text ?? ''}`);
    const results = result.structuredContent?.results ?? [];
    return {
      tools,
      query,
      results: results.length,
      firstTitle: results[0]?.title ?? null,
      tookMs: Date.now() - started,
    };
  } catch (error) {
    if (error instanceof CairnError) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw new CairnError(
      'SOURCE_UNREACHABLE',
      `Could not run ${[config.command, ...config.args].join(' ')}: ${detail}${stderr ? `\n${stderr.trim()}` : ''}`,
    );
  } finally {
    await client.close().catch(() => undefined);
  }
}
