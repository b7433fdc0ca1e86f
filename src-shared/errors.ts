/**
 * Errors cross every boundary (IPC, HTTP, CLI --json) as data, never as thrown objects,
 * because Electron keeps only `message` of a thrown error. The union of codes is closed.
 */
export const ERROR_CODES = [
  'INVALID_ARGUMENT',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'ALREADY_SYNCING',
  'AUTH_INVALID',
  'AUTH_EXPIRED',
  'PERMISSION_DENIED',
  'RATE_LIMITED',
  'QUOTA_EXCEEDED',
  'SOURCE_UNREACHABLE',
  'SOURCE_ERROR',
  /** The platform answered in a shape its documentation does not describe (the message names endpoint and field). */
  'UNEXPECTED_RESPONSE',
  'UNSUPPORTED',
  'TIMEOUT',
  'CANCELLED',
  'MODEL_NOT_FOUND',
  'CONTEXT_TOO_LONG',
  'EMBEDDING_FAILED',
  'DOCUMENT_FAILED',
  'DATA_DIR_LOCKED',
  /** The data directory's database could not be opened and was left untouched (details: folder, reason). */
  'DATA_DIR_DAMAGED',
  'DOWNLOAD_INTERRUPTED',
  'CHECKSUM_MISMATCH',
  'DISK_FULL',
  'UNVERIFIED',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface AppErrorData {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: AppErrorData };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T = never>(
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
): Result<T> {
  return { ok: false, error: details ? { code, message, details } : { code, message } };
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}
