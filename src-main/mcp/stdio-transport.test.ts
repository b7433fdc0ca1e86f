/**
 * The stdio transport answers oversized and malformed input with JSON-RPC errors and goes on
 * serving (#25 item 6): with the SDK's own transport, a line over 10 MiB closed the server (exit 0)
 * and a malformed line got no answer at all.
 */
import { PassThrough } from 'node:stream';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { McpStdioTransport } from './stdio-transport';

interface Reply {
  id: unknown;
  result?: { tools?: { name: string }[]; serverInfo?: { name: string } };
  error?: { code: number; message: string };
}

/** A real MCP server on the transport, fed through in-memory pipes. */
async function serve(maxLineBytes?: number) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const replies: Reply[] = [];
  let buffered = '';
  stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let at = buffered.indexOf('\n'); at !== -1; at = buffered.indexOf('\n')) {
      replies.push(JSON.parse(buffered.slice(0, at)) as Reply);
      buffered = buffered.slice(at + 1);
    }
  });
  const server = new McpServer({ name: 'test', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool('ping', { description: 'answers pong' }, async () => ({
    content: [{ type: 'text' as const, text: 'pong' }],
  }));
  let closed = false;
  const transport = new McpStdioTransport(stdin, stdout, maxLineBytes ? { maxLineBytes } : {});
  await server.connect(transport);
  transport.onclose = () => void (closed = true);
  const waitFor = async (count: number) => {
    for (let i = 0; i < 500 && replies.length < count; i++) await new Promise((r) => setTimeout(r, 10));
    return replies;
  };
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
  };
  return { stdin, replies, waitFor, initialize, closed: () => closed };
}

describe('McpStdioTransport', () => {
  it('answers a line over the limit with an error, never holding it, and serves the next request', async () => {
    const { stdin, waitFor, initialize, closed } = await serve(1024 * 1024);
    // 3 MiB in 64 KiB pieces, then the newline: the line is dropped as it streams.
    const piece = Buffer.alloc(64 * 1024, 'a');
    for (let i = 0; i < 48; i++) stdin.write(piece);
    stdin.write('\n');
    stdin.write(`${JSON.stringify(initialize)}\n`);
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
    const replies = await waitFor(3);
    expect(replies[0]).toMatchObject({ id: null, error: { code: -32600 } });
    expect(replies[0]!.error!.message).toContain('Message too large');
    expect(replies[1]).toMatchObject({ id: 1, result: { serverInfo: { name: 'test' } } });
    expect(replies[2]).toMatchObject({ id: 2, result: { tools: [{ name: 'ping' }] } });
    expect(closed()).toBe(false);
  });

  it('answers a line that is not JSON with a parse error, and JSON that is not JSON-RPC with its id', async () => {
    const { stdin, waitFor, initialize } = await serve();
    stdin.write('{"jsonrpc": "2.0", "id": 7, "method": \n');
    stdin.write(`${JSON.stringify({ id: 8, hello: 'world' })}\n`);
    stdin.write('\n');
    stdin.write(`${JSON.stringify(initialize)}\n`);
    const replies = await waitFor(3);
    expect(replies).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the line is not JSON.' } },
      {
        jsonrpc: '2.0',
        id: 8,
        error: { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message.' },
      },
      expect.objectContaining({ id: 1, result: expect.objectContaining({ serverInfo: expect.anything() }) }),
    ]);
  });

  it('reads messages split across chunks and several in one chunk', async () => {
    const { stdin, waitFor, initialize } = await serve();
    const text = `${JSON.stringify(initialize)}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`;
    for (let at = 0; at < text.length; at += 7) stdin.write(text.slice(at, at + 7));
    const replies = await waitFor(2);
    expect(replies.map((reply) => reply.id)).toEqual([1, 2]);
  });
});
