/** The pure checks of an edit: removing optional secret fields, and refusing to remove required ones. */
import { describe, expect, it } from 'vitest';
import type { ConnectionView } from '@shared/models';
import { CairnError } from '../errors';
import { checkNewConnection, parseConnectionUpdate, planConnectionEdit } from './connection-fields';

const feishu: ConnectionView = {
  id: 'wiki-1a2b3c',
  platform: 'feishu',
  name: 'Wiki',
  mode: 'direct',
  config: { appId: 'cli_x' },
  secretFields: ['appSecret', 'userRefreshToken'],
  syncStatus: 'idle',
  syncError: null,
  syncErrorCode: null,
  lastSyncAt: null,
  nextSyncAt: null,
  documentCount: 0,
  chunkCount: 0,
  limitation: null,
  limitationCode: null,
  experimental: false,
  userAuth: 'authorized',
};
const stored = { appSecret: 'app-secret-1', userRefreshToken: 'refresh-1' };

function problem(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof CairnError) return `${error.code}: ${error.message}`;
    throw error;
  }
  return 'no error';
}

describe('planConnectionEdit: clearSecrets', () => {
  it('removes an optional secret field and keeps the others; that changes how Cairn reaches the platform', () => {
    const edit = planConnectionEdit(feishu, stored, { id: feishu.id, clearSecrets: ['userRefreshToken'] });
    expect({
      secrets: edit.secrets,
      cleared: edit.clearedSecrets,
      changesAccess: edit.changesAccess,
    }).toEqual({
      secrets: { appSecret: 'app-secret-1' },
      cleared: ['userRefreshToken'],
      changesAccess: true,
    });
  });

  it('clearing a field that is not stored changes nothing', () => {
    const edit = planConnectionEdit(
      { ...feishu, secretFields: ['appSecret'] },
      { appSecret: 'app-secret-1' },
      { id: feishu.id, clearSecrets: ['userRefreshToken'] },
    );
    expect({
      secrets: edit.secrets,
      cleared: edit.clearedSecrets,
      changesAccess: edit.changesAccess,
    }).toEqual({ secrets: { appSecret: 'app-secret-1' }, cleared: [], changesAccess: false });
  });

  it('refuses to remove a required secret, a non-secret, an unknown field, or one the same edit replaces', () => {
    expect(
      problem(() => planConnectionEdit(feishu, stored, { id: feishu.id, clearSecrets: ['appSecret'] })),
    ).toBe(
      'INVALID_ARGUMENT: Invalid Feishu connection: App secret (--app-secret) is required and cannot be removed.',
    );
    expect(
      problem(() =>
        planConnectionEdit(feishu, stored, { id: feishu.id, clearSecrets: ['appId', 'tenantToken'] }),
      ),
    ).toBe(
      'INVALID_ARGUMENT: Invalid Feishu connection: appId is not a secret: clear it with "" in config; unknown secret field "tenantToken".',
    );
    expect(
      problem(() =>
        planConnectionEdit(feishu, stored, {
          id: feishu.id,
          secrets: { userRefreshToken: 'refresh-2' },
          clearSecrets: ['userRefreshToken'],
        }),
      ),
    ).toBe(
      'INVALID_ARGUMENT: Invalid Feishu connection: userRefreshToken cannot be both replaced and removed.',
    );
  });

  it('checks the shape: clearSecrets is a list of field names', () => {
    expect(
      problem(() =>
        parseConnectionUpdate({ id: 'x', clearSecrets: 'userRefreshToken' as unknown as string[] }),
      ),
    ).toMatch(/^INVALID_ARGUMENT: .*clearSecrets/);
  });
});

describe('oauthScopes', () => {
  const lark = {
    platform: 'lark' as const,
    name: 'Lark',
    mode: 'direct' as const,
    secrets: { appSecret: 's' },
  };

  it('is kept as one space between scope names', () => {
    expect(
      checkNewConnection({
        ...lark,
        config: { appId: 'cli_x', oauthScopes: '  search:docs:read \n wiki:wiki:readonly ' },
      }).config,
    ).toEqual({ appId: 'cli_x', oauthScopes: 'search:docs:read wiki:wiki:readonly' });
  });

  it('refuses a list that is not scope names, on add and on edit; "" goes back to the defaults', () => {
    expect(
      problem(() =>
        checkNewConnection({
          ...lark,
          config: { appId: 'cli_x', oauthScopes: 'search:docs:read,wiki:wiki:readonly' },
        }),
      ),
    ).toBe(
      'INVALID_ARGUMENT: Invalid Lark connection: oauthScopes: "search:docs:read,wiki:wiki:readonly" is not a scope name (separate scopes with spaces, e.g. "search:docs:read wiki:wiki:readonly").',
    );
    const scoped = { ...feishu, config: { appId: 'cli_x', oauthScopes: 'search:docs:read' } };
    expect(
      problem(() => planConnectionEdit(scoped, stored, { id: feishu.id, config: { oauthScopes: 'wiki:*' } })),
    ).toMatch(/"wiki:\*" is not a scope name/);
    expect(planConnectionEdit(scoped, stored, { id: feishu.id, config: { oauthScopes: '' } }).config).toEqual(
      { appId: 'cli_x' },
    );
  });
});
