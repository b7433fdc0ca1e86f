/** How commands print: human text on a terminal, or one JSON document with `--json` (errors as data). */
import type { AppErrorData, ErrorCode, Result } from '@shared/errors';
import type { CliIo } from './command';

export function writeLine(stream: NodeJS.WritableStream, text = ''): void {
  stream.write(text + '\n');
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
