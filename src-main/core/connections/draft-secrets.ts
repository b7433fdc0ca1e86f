/**
 * Secrets a connector rotated while testing an UNSAVED connection. Feishu/Lark user refresh
 * tokens are single-use (connectors.md §1.2): "Test connection" in the Add form spends the one
 * the form holds, so the next Test, and the Add that follows, must use the rotated one instead.
 * Kept in memory only, keyed by a hash of what the form sent, and forgotten after a while.
 */
import { createHash } from 'node:crypto';

const KEEP_MS = 30 * 60_000;

export class DraftSecrets {
  private readonly rotated = new Map<string, { secrets: Record<string, string>; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The secrets to use for what the form sent: the latest rotation of them, or the same ones. */
  current(platform: string, sent: Record<string, string>): Record<string, string> {
    this.prune();
    return this.rotated.get(keyOf(platform, sent))?.secrets ?? sent;
  }

  /** Remembers a rotation that happened while testing the draft the form sent. */
  remember(platform: string, sent: Record<string, string>, rotated: Record<string, string>): void {
    this.rotated.set(keyOf(platform, sent), {
      secrets: { ...this.current(platform, sent), ...rotated },
      at: this.now(),
    });
  }

  /** The secrets to save for what the form sent; the draft is forgotten (it is a connection now). */
  take(platform: string, sent: Record<string, string>): Record<string, string> {
    const secrets = this.current(platform, sent);
    this.rotated.delete(keyOf(platform, sent));
    return secrets;
  }

  private prune(): void {
    for (const [key, entry] of this.rotated) if (this.now() - entry.at > KEEP_MS) this.rotated.delete(key);
  }
}

function keyOf(platform: string, secrets: Record<string, string>): string {
  const entries = Object.entries(secrets).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256')
    .update(JSON.stringify([platform, entries]))
    .digest('hex');
}
