import { describe, expect, it } from 'vitest';
import { DraftSecrets } from './draft-secrets';

describe('DraftSecrets', () => {
  const sent = { appSecret: 'app-secret-1', userRefreshToken: 'ur-0' };

  it('hands out the latest rotation of what the form sent, until the draft is saved', () => {
    const drafts = new DraftSecrets();
    expect(drafts.current('feishu', sent)).toBe(sent);
    drafts.remember(
      'feishu',
      { userRefreshToken: 'ur-0', appSecret: 'app-secret-1' },
      { userRefreshToken: 'ur-1' },
    );
    drafts.remember('feishu', sent, { userRefreshToken: 'ur-2' });
    expect(drafts.current('feishu', sent)).toEqual({ appSecret: 'app-secret-1', userRefreshToken: 'ur-2' });
    expect(drafts.current('lark', sent)).toBe(sent);
    expect(drafts.current('feishu', { ...sent, appSecret: 'other' })).toEqual({
      ...sent,
      appSecret: 'other',
    });
    expect(drafts.take('feishu', sent)).toEqual({ appSecret: 'app-secret-1', userRefreshToken: 'ur-2' });
    expect(drafts.take('feishu', sent)).toEqual(sent);
  });

  it('forgets rotations after half an hour', () => {
    let now = 0;
    const drafts = new DraftSecrets(() => now);
    drafts.remember('feishu', sent, { userRefreshToken: 'ur-1' });
    now = 30 * 60_000 + 1;
    expect(drafts.current('feishu', sent)).toBe(sent);
  });
});
