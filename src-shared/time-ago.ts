/**
 * "3 days ago", "2 h ago", "Mar 5", "Mar 5, 2025" / "3 天前", "2 小时前", "3月5日", "2025年3月5日":
 * how long ago something happened, for freshness lines (result and source cards, MCP, the CLI).
 * Within a week it is relative; older, a date in the language's own order, with the year when it
 * is not this year's. Written out rather than left to Intl.RelativeTimeFormat, whose short forms
 * differ between ICU versions (Node and the browser must print the same).
 */
export type TimeLanguage = 'en' | 'zh';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export function timeAgo(iso: string, now: Date, language: TimeLanguage): string {
  const then = new Date(iso);
  const elapsed = now.getTime() - then.getTime();
  const zh = language === 'zh';
  // A clock a little ahead (another machine's file times) reads as now.
  if (elapsed < MINUTE) return zh ? '刚刚' : 'just now';
  if (elapsed < HOUR) {
    const minutes = Math.floor(elapsed / MINUTE);
    return zh ? `${minutes} 分钟前` : `${minutes} min ago`;
  }
  if (elapsed < DAY) {
    const hours = Math.floor(elapsed / HOUR);
    return zh ? `${hours} 小时前` : `${hours} h ago`;
  }
  if (elapsed < 7 * DAY) {
    const days = Math.floor(elapsed / DAY);
    return zh ? `${days} 天前` : days === 1 ? 'yesterday' : `${days} days ago`;
  }
  return calendarDate(then, now, language);
}

/** "Mar 5" / "3月5日" this year, "Mar 5, 2025" / "2025年3月5日" another year (local time). */
export function calendarDate(date: Date, now: Date, language: TimeLanguage): string {
  const sameYear = date.getFullYear() === now.getFullYear();
  return new Intl.DateTimeFormat(language === 'zh' ? 'zh-CN' : 'en', {
    ...(sameYear ? {} : { year: 'numeric' }),
    month: language === 'zh' ? 'long' : 'short',
    day: 'numeric',
  }).format(date);
}

/**
 * A result's freshness as one English line, as the CLI and MCP print it: "edited 3 days ago ·
 * synced 2 h ago", then what is known to have changed since.
 */
export function freshnessLine(
  freshness: {
    editedAt: string | null;
    syncedAt: string;
    changed?: { kind: 'file-modified' | 'file-missing' | 'platform-newer'; at: string | null };
  },
  now: Date,
): string {
  const parts = [
    ...(freshness.editedAt ? [`edited ${timeAgo(freshness.editedAt, now, 'en')}`] : []),
    `synced ${timeAgo(freshness.syncedAt, now, 'en')}`,
  ];
  const changed = freshness.changed;
  if (changed?.kind === 'file-missing') parts.push('the file is gone since');
  else if (changed?.kind === 'file-modified')
    parts.push(`the file changed since (${timeAgo(changed.at!, now, 'en')}): sync to update`);
  else if (changed?.kind === 'platform-newer')
    parts.push(
      `edited again on the platform${changed.at ? ` ${timeAgo(changed.at, now, 'en')}` : ''}, not synced yet`,
    );
  return parts.join(' · ');
}
