/**
 * `cairn test <connection>` names the permission or scope a platform says is missing (#28 "Done
 * means"), each platform served by its fake: DingTalk's 403 with accessdenieddetail.requiredScopes,
 * Feishu's 99991672 with error.permission_violations, IMA's "client too old".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewConnection } from '@shared/models';
import { createCairn, type CairnInternals } from '../../core/app/create-cairn';
import { defaultConnectorFactories } from '../../core/connectors/registry';
import { startDingTalkFake, type DingTalkFake } from '../../testing/fakes/dingtalk-fake';
import { startFeishuFake, type FeishuFake } from '../../testing/fakes/feishu-fake';
import { startImaFake, type ImaFake } from '../../testing/fakes/ima-fake';
import { unwrap } from '../../testing/integration-kit';
import { runCli } from '../../testing/run-cli';

let cairn: CairnInternals;
let dingtalk: DingTalkFake;
let feishu: FeishuFake;
let ima: ImaFake;

beforeAll(async () => {
  [dingtalk, feishu, ima] = await Promise.all([
    startDingTalkFake({ documents: 4, spaces: 1 }),
    startFeishuFake({ documents: 3, knowledgeBases: 1 }),
    startImaFake({ documents: 3 }),
  ]);
  cairn = await createCairn({ scheduler: false, env: {}, factories: defaultConnectorFactories() });
  const { appSecret, ...dingtalkConfig } = dingtalk.credentials;
  const { apiKey, ...imaConfig } = ima.credentials;
  const connections: Omit<NewConnection, 'mode'>[] = [
    {
      platform: 'dingtalk' as const,
      name: 'Ding',
      config: {
        baseUrl: dingtalk.baseUrl,
        ...dingtalkConfig,
        userId: dingtalk.control.userId,
        operatorId: '',
      },
      secrets: { appSecret: appSecret! },
    },
    {
      platform: 'feishu' as const,
      name: 'Lark wiki',
      config: { baseUrl: feishu.baseUrl, appId: feishu.credentials.appId },
      secrets: { appSecret: feishu.credentials.appSecret },
    },
    {
      platform: 'ima' as const,
      name: 'Notes',
      config: { baseUrl: ima.baseUrl, ...imaConfig },
      secrets: { apiKey: apiKey! },
    },
  ];
  for (const connection of connections)
    unwrap(await cairn.api.connections.add({ ...connection, mode: 'direct' }));
});

afterAll(async () => {
  await cairn?.dispose();
  await Promise.all([dingtalk, feishu, ima].map((fake) => fake?.close()));
});

describe('cairn test names what the platform says is missing', () => {
  it('passes while nothing is missing', async () => {
    for (const name of ['Ding', 'Lark wiki', 'Notes'])
      expect(await runCli(['test', name], { cairn })).toMatchObject({ code: 0, stderr: '' });
  });

  it.each(['Wiki.Workspace.Read', 'Wiki.Node.Read', 'Storage.File.Read'])(
    'DingTalk without %s',
    async (permission) => {
      dingtalk.control.revokePermission(permission);
      try {
        const run = await runCli(['test', 'Ding'], { cairn });
        expect(run.code).toBe(1);
        expect(run.stderr).toMatch(
          new RegExp(
            `^cairn: The DingTalk app lacks the permission ${permission.replace(/\./g, '\\.')} needed to .*\\(PERMISSION_DENIED\\)\\n$`,
          ),
        );
      } finally {
        dingtalk.control.grantAllPermissions();
      }
    },
  );

  it('Feishu without a wiki scope', async () => {
    feishu.control.revokeScope(true);
    try {
      const run = await runCli(['test', 'Lark wiki'], { cairn });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /^cairn: The Feishu app lacks one of the scopes wiki:wiki:readonly, wiki:wiki for .*Enable it in the developer console.*\(PERMISSION_DENIED\)\n$/,
      );
    } finally {
      feishu.control.revokeScope(false);
    }
  });

  it('IMA that says the client is too old', async () => {
    ima.control.requireSkillVersion = '99.0';
    try {
      const run = await runCli(['test', 'Notes'], { cairn });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /^cairn: IMA says this client is too old for its OpenAPI .*update Cairn\. \(UNSUPPORTED\)\n$/,
      );
    } finally {
      ima.control.requireSkillVersion = null;
    }
  });
});
