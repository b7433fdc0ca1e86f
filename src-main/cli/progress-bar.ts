/**
 * A one-line terminal progress bar, redrawn in place. Only on a TTY: piped output and `--json`
 * stay clean, so scripts never see carriage returns.
 */
import { CLEAR_LINE, terminalText, truncateToWidth } from './output';

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface ProgressBar {
  update(progress: { done: number; total: number; label: string }): void;
  /** Clears the bar so the next line starts clean. */
  stop(): void;
}

export interface ProgressBarOptions {
  /** Redraws at most this often. @default 80 */
  minIntervalMs?: number;
  now?: () => number;
}

export function createProgressBar(stream: ProgressStream, options: ProgressBarOptions = {}): ProgressBar {
  if (!stream.isTTY) return { update() {}, stop() {} };
  const now = options.now ?? Date.now;
  const minIntervalMs = options.minIntervalMs ?? 80;
  let lastDraw = -Infinity;
  let drawn = false;
  return {
    update({ done, total, label }) {
      const time = now();
      const finished = total > 0 && done >= total;
      if (!finished && time - lastDraw < minIntervalMs) return;
      lastDraw = time;
      drawn = true;
      stream.write(CLEAR_LINE + renderBar(done, total, label, stream.columns ?? 80));
    },
    stop() {
      if (drawn) stream.write(CLEAR_LINE);
      drawn = false;
    },
  };
}

/** `[#####.....]  45/200  label`, fitted to the terminal width; an unknown total shows only the count. */
export function renderBar(done: number, total: number, label: string, columns: number): string {
  const count = total > 0 ? `${done}/${total}` : String(done);
  const barWidth = Math.max(10, Math.min(30, columns - count.length - 20));
  const filled = total > 0 ? Math.min(barWidth, Math.round((done / total) * barWidth)) : 0;
  const bar = total > 0 ? `[${'#'.repeat(filled)}${'.'.repeat(barWidth - filled)}] ` : '';
  const head = `${bar}${count}  `;
  return head + truncateToWidth(terminalText(label), Math.max(0, columns - 1 - head.length));
}
