/**
 * `--since` / `--until` for `cairn search`: what a person types, turned into the instants the
 * search filter takes (SearchFilters.modifiedAfter / modifiedBefore).
 * - A date (2026-03-01) is local midnight: "since March 1" means the user's March 1.
 * - `--until` with a date includes that whole day (the filter's bound is exclusive).
 * - A duration back from now: 7d, 2w, 3m, 1y (days, weeks, months, years).
 * - A full ISO 8601 date-time with Z or an offset is passed as it is.
 */
import { UsageError } from './args';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DURATION = /^(\d{1,4})([dwmy])$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/;

function localDate(text: string): Date | null {
  const match = DATE.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(year, month - 1, day);
  // new Date(2026, 1, 30) is March 2: a date that does not exist is an error, not a neighbour.
  return date.getFullYear() === year && date.getMonth() === month - 1 && date.getDate() === day ? date : null;
}

function ago(text: string, now: Date): Date | null {
  const match = DURATION.exec(text);
  if (!match) return null;
  const count = Number(match[1]);
  const date = new Date(now);
  const unit = match[2]!.toLowerCase();
  if (unit === 'd') date.setDate(date.getDate() - count);
  else if (unit === 'w') date.setDate(date.getDate() - 7 * count);
  else if (unit === 'm') date.setMonth(date.getMonth() - count);
  else date.setFullYear(date.getFullYear() - count);
  return date;
}

function parse(value: string, flag: string, now: Date, endOfDay: boolean): Date {
  const text = value.trim();
  const day = localDate(text);
  if (day) {
    if (endOfDay) day.setDate(day.getDate() + 1);
    return day;
  }
  const relative = ago(text, now);
  if (relative) return relative;
  const time = DATE_TIME.test(text) ? Date.parse(text) : NaN;
  if (!Number.isNaN(time)) return new Date(time);
  throw new UsageError(
    `${flag} takes a date (2026-03-01), a date and time (2026-03-01T09:00:00Z) or a time back from now (7d, 2w, 3m, 1y), not "${value.slice(0, 40)}".`,
  );
}

/** The modified-date filter for `--since` / `--until`, or nothing when neither is given. */
export function parseDateFlags(
  since: string | undefined,
  until: string | undefined,
  now = new Date(),
): { modifiedAfter?: string; modifiedBefore?: string } {
  const after = since === undefined ? null : parse(since, '--since', now, false);
  const before = until === undefined ? null : parse(until, '--until', now, true);
  if (after && before && after >= before)
    throw new UsageError(`--since (${since}) must be earlier than --until (${until}).`);
  return {
    ...(after ? { modifiedAfter: after.toISOString() } : {}),
    ...(before ? { modifiedBefore: before.toISOString() } : {}),
  };
}
