import { describe, expect, it } from 'vitest';
import { connection } from '../../test/fake-api';
import {
  connectionUpdate,
  defaultName,
  draftProblem,
  editDraft,
  newConnection,
  newDraft,
  withPlatform,
} from './connection-draft';

describe('connection draft', () => {
  it('names an unnamed folder after its last path segment (either slash, trailing ones dropped), else the platform', () => {
    const named = (path: string) => defaultName({ ...newDraft('folder'), values: { path } }, 'en');
    expect([
      named('/home/me/笔记/'),
      named('C:\\Users\\me\\Notes\\\\'),
      named('   '),
      defaultName(newDraft('yuque'), 'zh'),
    ]).toEqual(['笔记', 'Notes', 'Local folder', '语雀']);
  });

  it('finds the first missing required field, a stored secret counting as given, then a one-of group', () => {
    const dingtalk = { ...newDraft('dingtalk'), values: { appKey: 'k' } };
    expect([
      draftProblem(newDraft('folder')),
      draftProblem(newDraft('folder', '~/notes')),
      draftProblem(dingtalk),
      draftProblem(dingtalk, ['appSecret']),
      draftProblem({ ...dingtalk, values: { appKey: 'k', operatorId: ' u ' } }, ['appSecret']),
    ]).toEqual([
      { kind: 'required', field: 'path' },
      null,
      { kind: 'required', field: 'appSecret' },
      { kind: 'oneOf', fields: ['userId', 'operatorId'] },
      null,
    ]);
  });

  it('sends a new connection’s given fields trimmed, secrets apart, booleans as booleans', () => {
    const draft = {
      ...withPlatform({ ...newDraft('folder', '/x'), name: '  ' }, 'dingtalk'),
      values: { appKey: ' key ', appSecret: ' s3cret ', userId: '', streamEvents: 'true' },
      rag: false,
    };
    expect(newConnection(draft, 'en')).toEqual({
      platform: 'dingtalk',
      name: 'DingTalk',
      mode: 'direct',
      config: { appKey: 'key', streamEvents: true, international: false },
      secrets: { appSecret: 's3cret' },
    });
  });

  it('starts an edit from the saved non-secret fields and sends every one back, secrets only when typed', () => {
    const saved = connection({
      id: 'y1',
      platform: 'yuque',
      name: 'Wiki',
      config: { baseUrl: 'http://127.0.0.1:9/api/v2' },
      secretFields: ['token'],
    });
    const draft = editDraft(saved);
    const cleared = { ...draft, name: '', values: { ...draft.values, baseUrl: ' ' } };
    expect({
      draft,
      unchanged: connectionUpdate(draft, saved),
      cleared: connectionUpdate(cleared, saved),
      newToken: connectionUpdate({ ...draft, values: { ...draft.values, token: ' t2 ' } }, saved),
    }).toEqual({
      draft: {
        platform: 'yuque',
        name: 'Wiki',
        values: { baseUrl: 'http://127.0.0.1:9/api/v2' },
        rag: true,
        clearing: [],
      },
      unchanged: { id: 'y1', name: 'Wiki', config: { baseUrl: 'http://127.0.0.1:9/api/v2' }, secrets: {} },
      cleared: { id: 'y1', name: 'Wiki', config: { baseUrl: '' }, secrets: {} },
      newToken: {
        id: 'y1',
        name: 'Wiki',
        config: { baseUrl: 'http://127.0.0.1:9/api/v2' },
        secrets: { token: 't2' },
      },
    });
  });

  it('removes a stored optional secret the user cleared, and never sends a value typed into it', () => {
    const lark = connection({
      id: 'l1',
      platform: 'lark',
      name: 'Lark',
      config: { appId: 'cli_x' },
      secretFields: ['appSecret', 'userRefreshToken'],
    });
    const draft = {
      ...editDraft(lark),
      values: { appId: 'cli_x', userRefreshToken: 'typed' },
      clearing: ['userRefreshToken'],
    };
    expect(connectionUpdate(draft, lark)).toEqual({
      id: 'l1',
      name: 'Lark',
      config: { appId: 'cli_x', baseUrl: '', redirectPort: '', oauthScopes: '' },
      secrets: {},
      clearSecrets: ['userRefreshToken'],
    });
  });
});
