/**
 * The MCP stdio transport `cairn mcp` serves on: one JSON-RPC message per line (MCP spec,
 * "Transports: stdio"). The SDK's StdioServerTransport closes itself when a line passes 10 MiB (the
 * server then exits 0 without a word) and answers nothing to a line that is not JSON-RPC, so a
 * client waits forever. This one never stops for its input:
 *   - a line over `maxLineBytes` is dropped as it streams in (never held whole) and answered with
 *     the JSON-RPC error -32600 "Invalid Request" (id null: nothing of it was read);
 *   - a line that is not JSON gets -32700 "Parse error", and JSON that is not a JSON-RPC message
 *     gets -32600 with the request's id when it has a usable one (JSON-RPC 2.0 §5.1);
 * and the next line is read as usual.
 */
import process from 'node:process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The longest message line read. @default 10 MiB (the SDK's own limit) */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

export interface StdioTransportOptions {
  maxLineBytes?: number;
}

export class McpStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Bytes of an oversized line dropped so far (0: not dropping). */
  private dropped = 0;
  private started = false;
  private closed = false;
  private readonly maxLineBytes: number;

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    options: StdioTransportOptions = {},
  ) {
    this.maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('McpStdioTransport already started.');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.pending = [];
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  private readonly onStreamError = (error: Error) => this.onerror?.(error);

  private readonly onData = (chunk: Buffer | string) => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let newline = data.indexOf(0x0a); newline !== -1; newline = data.indexOf(0x0a)) {
      this.endLine(data.subarray(0, newline));
      data = data.subarray(newline + 1);
    }
    if (data.length > 0) this.take(data);
  };

  /** Keeps part of a line, or drops it once the line passes the limit. */
  private take(part: Buffer): void {
    if (this.dropped > 0) {
      this.dropped += part.length;
      return;
    }
    if (this.pendingBytes + part.length > this.maxLineBytes) {
      this.dropped = this.pendingBytes + part.length;
      this.pending = [];
      this.pendingBytes = 0;
      return;
    }
    // A copy: the stream may reuse the chunk's memory.
    this.pending.push(Buffer.from(part));
    this.pendingBytes += part.length;
  }

  private endLine(tail: Buffer): void {
    this.take(tail);
    if (this.dropped > 0) {
      const size = this.dropped;
      this.dropped = 0;
      this.reply(
        null,
        INVALID_REQUEST,
        `Message too large: a line of ${size.toLocaleString('en')} bytes or more; the limit is ${this.maxLineBytes.toLocaleString('en')}.`,
      );
      return;
    }
    const line = Buffer.concat(this.pending, this.pendingBytes).toString('utf8').replace(/\r$/, '');
    this.pending = [];
    this.pendingBytes = 0;
    if (line.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      this.reply(null, PARSE_ERROR, 'Parse error: the line is not JSON.');
      return;
    }
    const message = JSONRPCMessageSchema.safeParse(parsed);
    if (!message.success) {
      this.reply(idOf(parsed), INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message.');
      return;
    }
    try {
      this.onmessage?.(message.data);
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  private reply(id: string | number | null, code: number, message: string): void {
    this.onerror?.(new Error(message));
    // Written as is: the SDK's message types have no error reply without an id.
    this.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`);
  }
}

function idOf(value: unknown): string | number | null {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}
