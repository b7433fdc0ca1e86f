/**
 * The wire format between a running instance and its clients: one JSON object per line (JSON
 * escapes newlines inside strings, so a line is always a whole frame). Method names and their
 * arguments are the contract's own (`"search.query"`, the same zod schemas as IPC and HTTP, in
 * the shared dispatcher); this file only frames them. The client frames' schema, which only the
 * instance checks, is in client-frame.ts, so a client never loads zod.
 *
 *   client → instance   hello {token, client}   first, or nothing is ever answered
 *                       call {id, channel, input} · cancel {id} · yield
 *   instance → client   welcome {instance} | refused {error}
 *                       result {id, result} · event {name, payload} · yielding {accepted} · closing {reason}
 */
import type { CairnEventName, CairnEvents } from '@shared/contract';
import type { AppErrorData, Result } from '@shared/errors';
import type { ClientFrame } from './client-frame';

export type { ClientFrame } from './client-frame';

export const PROTOCOL_VERSION = 1;

/** A line longer than this is refused (the HTTP host's body limit is 1 MiB; events carry chat text). */
export const MAX_FRAME_BYTES = 4 * 1024 * 1024;

/** What kind of process holds the data directory. desktop and serve stay; cli and mcp hand over. */
export type InstanceKind = 'desktop' | 'serve' | 'cli' | 'mcp';

export interface InstanceInfo {
  kind: InstanceKind;
  pid: number;
  version: string;
  dataDir: string;
  startedAt: string;
  /** The socket or pipe it listens on. */
  address: string;
}

/** What a client is told about the instance that answers it (`cairn status` prints it). */
export interface AnsweredBy extends InstanceInfo {
  /** socket: another process answered; in-process: this process opened the data directory itself. */
  via: 'socket' | 'in-process';
}

export type ServerFrame =
  | { t: 'welcome'; v: number; instance: InstanceInfo }
  | { t: 'refused'; error: AppErrorData }
  | { t: 'result'; id: number; result: Result<unknown> }
  | { t: 'event'; name: CairnEventName; payload: CairnEvents[CairnEventName] }
  | { t: 'yielding'; accepted: boolean }
  | { t: 'closing'; reason: string };

/** The contents of `instance.json`. */
export interface InstanceFile extends InstanceInfo {
  token: string;
}

const INSTANCE_KINDS: readonly string[] = ['desktop', 'serve', 'cli', 'mcp'];

/**
 * `instance.json` as a client reads it, or null when it is not one (half written by a holder
 * that crashed mid-write). Checked by hand, not with zod: a command answered by a running
 * instance must not load the schema library (docs/decisions/cli-startup.md).
 */
export function parseInstanceFile(value: unknown): InstanceFile | null {
  if (typeof value !== 'object' || value === null) return null;
  const file = value as Record<string, unknown>;
  const strings = ['version', 'dataDir', 'startedAt', 'address', 'token'] as const;
  if (!strings.every((key) => typeof file[key] === 'string')) return null;
  if (typeof file['kind'] !== 'string' || !INSTANCE_KINDS.includes(file['kind'])) return null;
  if (!Number.isInteger(file['pid']) || (file['token'] as string).length < 16) return null;
  return {
    kind: file['kind'] as InstanceKind,
    pid: file['pid'] as number,
    version: file['version'] as string,
    dataDir: file['dataDir'] as string,
    startedAt: file['startedAt'] as string,
    address: file['address'] as string,
    token: file['token'] as string,
  };
}

/**
 * Splits a byte stream into lines and hands each parsed JSON value on. A line over
 * MAX_FRAME_BYTES, or one that is not JSON, calls `onBad` (the connection is then closed).
 */
export function lineReader(onFrame: (value: unknown) => void, onBad: (reason: string) => void) {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let broken = false;
  return (chunk: Buffer) => {
    if (broken) return;
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      const line = Buffer.concat([...pending, chunk.subarray(start, newline)]).toString('utf8');
      pending = [];
      pendingBytes = 0;
      start = newline + 1;
      if (line.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        broken = true;
        return onBad('a frame is not valid JSON');
      }
      onFrame(value);
    }
    if (start < chunk.length) {
      pending.push(chunk.subarray(start));
      pendingBytes += chunk.length - start;
      if (pendingBytes > MAX_FRAME_BYTES) {
        broken = true;
        onBad(`a frame is larger than ${MAX_FRAME_BYTES} bytes`);
      }
    }
  };
}

export function encodeFrame(frame: ClientFrame | ServerFrame): string {
  return `${JSON.stringify(frame)}\n`;
}
