/**
 * A small structured logger whose every line passes through redaction: registered secret values
 * and well-known credential shapes are replaced before anything is written.
 */
import { fstatSync, writeSync } from 'node:fs';
import { isatty } from 'node:tty';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  child(scope: string): Logger;
}

export type LogSink = (line: string) => void;

const LEVEL_ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Credential shapes redacted even when the value was never registered. */
const CREDENTIAL_PATTERNS: RegExp[] = [
  /(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
  /((?:app_secret|appSecret|client_secret|api[_-]?key|apikey|access_token|accessToken|refresh_token|refreshToken|tenant_access_token|token|password|secret)["']?\s*[:=]\s*["']?)[^\s"'&,}]{4,}/gi,
  /\bsk-[A-Za-z0-9_-]{8,}/g,
];

export class SecretRedactor {
  private readonly secrets = new Set<string>();

  /** Registers values that must never be written anywhere. Short values are ignored to avoid shredding logs. */
  register(...values: (string | undefined | null)[]): void {
    for (const value of values) {
      if (!value || value.length < 6) continue;
      // Log fields are JSON-serialised and URLs percent-encoded: a secret with a quote, backslash
      // or non-ASCII character appears in those spellings, not as its raw self.
      for (const spelling of [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)])
        this.secrets.add(spelling);
    }
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) if (out.includes(secret)) out = out.split(secret).join('[redacted]');
    for (const pattern of CREDENTIAL_PATTERNS)
      out = out.replace(pattern, (match, prefix?: string) =>
        typeof prefix === 'string' && match.startsWith(prefix) ? `${prefix}[redacted]` : '[redacted]',
      );
    return out;
  }
}

function serialise(fields: Record<string, unknown> | undefined): string {
  if (!fields) return '';
  try {
    return (
      ' ' +
      JSON.stringify(fields, (_key, value: unknown) =>
        value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value,
      )
    );
  } catch {
    return ' [unserialisable fields]';
  }
}

export function createLogger(
  options: { sink?: LogSink; level?: LogLevel; redactor?: SecretRedactor; scope?: string } = {},
): Logger {
  return scopedLogger(
    guardedSink(options.sink ?? standardErrorSink()),
    options.level,
    options.redactor ?? new SecretRedactor(),
    options.scope ?? 'cairn',
  );
}

/**
 * Lines to standard error. Redirected to a file (or a device such as /dev/full), Node writes
 * process.stderr synchronously but reports a failed write (ENOSPC) later, as an 'error' event
 * nobody handles, which ends the process: there the line is written to the descriptor directly, so
 * a failure is thrown here (guardedSink counts it) and later lines go out once there is room. A
 * pipe or terminal keeps the stream (non-blocking writes need its buffering), with a listener so
 * a failure of it (EPIPE) ends only the logging.
 */
export function standardErrorSink(fd = 2): LogSink {
  if (fd === 2 && (isatty(fd) || isPipeOrSocket(fd))) {
    if (process.stderr.listenerCount('error') === 0)
      process.stderr.on('error', (error: NodeJS.ErrnoException) => {
        droppedTotal++;
        lastFailure = error.code ?? error.message;
      });
    return (line) => void process.stderr.write(line + '\n');
  }
  return (line) => {
    writeSync(fd, line + '\n');
  };
}

function isPipeOrSocket(fd: number): boolean {
  try {
    const stats = fstatSync(fd);
    return stats.isFIFO() || stats.isSocket();
  } catch {
    return false;
  }
}

/**
 * A sink that never throws: a full disk (ENOSPC) or a closed stream must not turn a log line into
 * a crash of whatever was being logged. Lines that could not be written are counted, and the next
 * line that can be says how many were lost.
 */
function guardedSink(sink: LogSink): LogSink {
  let dropped = 0;
  return (line) => {
    try {
      if (dropped > 0) {
        sink(
          `${new Date().toISOString()} WARN [logger] ${dropped} log line(s) could not be written (${lastFailure})`,
        );
        dropped = 0;
      }
      sink(line);
    } catch (error) {
      dropped++;
      droppedTotal++;
      lastFailure =
        (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    }
  };
}

let droppedTotal = 0;
let lastFailure = '';

/** Log lines this process could not write (diagnostics, tests). */
export function droppedLogLines(): number {
  return droppedTotal;
}

function scopedLogger(
  sink: LogSink,
  level: LogLevel | undefined,
  redactor: SecretRedactor,
  scope: string,
): Logger {
  const minimum = LEVEL_ORDER[level ?? 'info'];
  const write = (lineLevel: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (LEVEL_ORDER[lineLevel] < minimum) return;
    sink(
      redactor.redact(
        `${new Date().toISOString()} ${lineLevel.toUpperCase()} [${scope}] ${message}${serialise(fields)}`,
      ),
    );
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (child) => scopedLogger(sink, level, redactor, `${scope}:${child}`),
  };
}

/** A logger that drops everything (tests that do not inspect logs). */
export function silentLogger(): Logger {
  return createLogger({ sink: () => {}, level: 'error' });
}
