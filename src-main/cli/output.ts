/** How commands print: human text on a terminal, or one JSON document with `--json` (errors as data). */
import type { AppErrorData, ErrorCode, Result } from '@shared/errors';
import type { CliIo } from './command';

export function writeLine(stream: NodeJS.WritableStream, text = ''): void {
  stream.write(text + '\n');
}

/**
 * Characters a terminal acts on instead of showing: C0 controls (ESC starts colour, cursor and
 * title sequences; CR overwrites the line; BEL rings), DEL, the C1 controls (U+009B is a CSI on
 * its own) and the bidirectional overrides that make text read differently from what it is.
 * A file name or a document title may hold any of them.
 */
const TERMINAL_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const TERMINAL_CONTROLS_AND_BREAKS =
  /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escapeControl(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * Text bound for a terminal with its control characters shown as `\u001b`-style escapes (also
 * valid inside a JSON string, so `--json` output stays JSON); line breaks and tabs stay.
 */
export function terminalSafe(text: string): string {
  return text.replace(TERMINAL_CONTROLS, escapeControl);
}

/** One value (a name, a title) inside a line: line breaks escaped too, so it cannot forge a line. */
export function terminalText(text: string): string {
  return text.replace(TERMINAL_CONTROLS_AND_BREAKS, escapeControl);
}

/** The one sequence Cairn itself writes to a terminal (progress-bar.ts): return, then clear the line. */
export const CLEAR_LINE = '\r\x1b[2K';

/**
 * A stream whose text has its control characters escaped (terminalSafe) on the way out, except
 * the progress bar's own CLEAR_LINE: every command's output passes it (main.ts), so no document
 * title, file name, model answer or platform message can drive the user's terminal.
 */
export function terminalStream<S extends NodeJS.WritableStream & { isTTY?: boolean; columns?: number }>(
  stream: S,
): S {
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    const text =
      typeof chunk === 'string'
        ? chunk
        : chunk instanceof Uint8Array
          ? Buffer.from(chunk).toString('utf8')
          : String(chunk);
    const safe = text.split(CLEAR_LINE).map(terminalSafe).join(CLEAR_LINE);
    return (stream.write as (...args: unknown[]) => boolean).call(stream, safe, ...rest);
  };
  return new Proxy(stream, {
    get(target, property) {
      if (property === 'write') return write;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** One JSON document on stdout: `{ok:true,value}` or `{ok:false,error:{code,message}}`. */
export function writeJson(io: CliIo, result: Result<unknown>): void {
  writeLine(io.stdout, JSON.stringify(result, null, 2));
}

export function exitCodeFor(code: ErrorCode): number {
  if (code === 'CANCELLED') return 130;
  if (code === 'INVALID_ARGUMENT') return 2;
  return 1;
}

export function reportError(io: CliIo, error: AppErrorData, json: boolean): number {
  if (json) writeJson(io, { ok: false, error });
  // Ctrl-C is the user's own doing, not a failure: the exit code (130) says enough.
  else if (error.code !== 'CANCELLED') writeLine(io.stderr, `cairn: ${error.message} (${error.code})`);
  return exitCodeFor(error.code);
}

/** Prints a result and returns the exit code: the value through `human`, or the error. */
export function report<T>(io: CliIo, json: boolean, result: Result<T>, human: (value: T) => string): number {
  if (!result.ok) return reportError(io, result.error, json);
  if (json) writeJson(io, result);
  else writeLine(io.stdout, human(result.value));
  return 0;
}

// East Asian wide characters take two terminal columns; padding by string length misaligns CJK names.
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|[\u{1f300}-\u{1faff}\u{20000}-\u{3fffd}]/u;

export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += WIDE.test(char) ? 2 : 1;
  return width;
}

/** Cuts text to at most `width` columns, marking the cut with an ellipsis. */
export function truncateToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const char of text) {
    const w = WIDE.test(char) ? 2 : 1;
    if (used + w > width - 1) break;
    out += char;
    used += w;
  }
  return out + '…';
}

/** Left-aligned columns sized to the widest cell, CJK-aware. */
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) =>
    Math.max(displayWidth(title), ...rows.map((row) => displayWidth(row[column] ?? ''))),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) =>
        column === cells.length - 1 ? cell : cell + ' '.repeat((widths[column] ?? 0) - displayWidth(cell)),
      )
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

/** "2025-03-01 10:00" in local time, or "never". */
export function formatTime(iso: string | null): string {
  if (!iso) return '—';
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
