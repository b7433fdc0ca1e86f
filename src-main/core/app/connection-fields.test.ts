/** The pure checks of an edit: removing optional secret fields, and refusing to remove required ones. */
import { describe, expect, it } from 'vitest';
import type { ConnectionView } from '../../../src-shared/models';
import { CairnError } from '../errors';
import { parseConnectionUpdate, planConnectionEdit } from './connection-fields';

const feishu: ConnectionView = {
  id: 'wiki-1a2b3c',
  platform: 'feishu',
  name: 'Wiki',
  mode: 'direct',
  config: { appId: 'cli_x' },
  secretFields: ['appSecret', 'userRefreshToken'],
  syncStatus: 'idle',
  syncError: null,
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
    expect({ secrets: edit.secrets, cleared: edit.clearedSecrets, changesAccess: edit.changesAccess }).toEqual({ secrets: { appSecret: 'app-secret-1' }, cleared: ['userRefreshToken'], changesAccess: true });
  });

  it('clearing a field that is not stored changes nothing', () => {
    const edit = planConnectionEdit({ ...feishu, secretFields: ['appSecret'] }, { appSecret: 'app-secret-1' }, { id: feishu.id, clearSecrets: ['userRefreshToken'] });
    expect({ secrets: edit.secrets, cleared: edit.clearedSecrets, changesAccess: edit.changesAccess }).toEqual({ secrets: { appSecret: 'app-secret-1' }, cleared: [], changesAccess: false });
  });

  it('refuses to remove a required secret, a non-secret, an unknown field, or one the same edit replaces', () => {
    expect(problem(() => planConnectionEdit(feishu, stored, { id: feishu.id, clearSecrets: ['appSecret'] }))).toBe(
      'INVALID_ARGUMENT: Invalid Feishu connection: App secret (--app-secret) is required and cannot be removed.',
    );
    expect(problem(() => planConnectionEdit(feishu, stored, { id: feishu.id, clearSecrets: ['appId', 'tenantToken'] }))).toBe(
      'INVALID_ARGUMENT: Invalid Feishu connection: appId is not a secret: clear it with "" in config; unknown secret field "tenantToken".',
    );
    expect(problem(() => planConnectionEdit(feishu, stored, { id: feishu.id, secrets: { userRefreshToken: 'refresh-2' }, clearSecrets: ['userRefreshToken'] }))).toBe(
      'INVALID_ARGUMENT: Invalid Feishu connection: userRefreshToken cannot be both replaced and removed.',
    );
  });

  it('checks the shape: clearSecrets is a list of field names', () => {
    expect(problem(() => parseConnectionUpdate({ id: 'x', clearSecrets: 'userRefreshToken' as unknown as string[] }))).toMatch(/^INVALID_ARGUMENT: .*clearSecrets/);
  });
});
