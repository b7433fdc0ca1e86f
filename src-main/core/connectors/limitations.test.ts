import { describe, expect, it } from 'vitest';
import type { Platform } from '@shared/models';
import { silentLogger } from '../logging/logger';
import { connectionLimitation, createConnector } from './registry';

// What a connection card says it cannot do must be what its connector says, without building one.
const CASES: [Platform, Record<string, string | number | boolean>, Record<string, string>][] = [
  ['folder', { path: '/tmp/notes' }, {}],
  ['feishu', { appId: 'cli_a' }, { appSecret: 'secret-1' }],
  ['feishu', { appId: 'cli_a' }, { appSecret: 'secret-1', userRefreshToken: 'refresh-1' }],
  ['lark', { appId: 'cli_a' }, { appSecret: 'secret-1' }],
  ['yuque', {}, { token: 'token-1' }],
  ['dingtalk', { appKey: 'k', operatorId: 'u' }, { appSecret: 'secret-1' }],
  ['dingtalk', { appKey: 'k', operatorId: 'u', streamEvents: true }, { appSecret: 'secret-1' }],
  ['dingtalk', { appKey: 'k', operatorId: 'u', streamEvents: false }, { appSecret: 'secret-1' }],
  ['ima', { clientId: 'c' }, { apiKey: 'key-1' }],
];

describe('connectionLimitation', () => {
  it('says what each connector says about itself, with a stable code', () => {
    for (const [platform, config, secrets] of CASES) {
      const connector = createConnector(platform, { config, secrets, logger: silentLogger() });
      expect({
        platform,
        config,
        limitation: connectionLimitation(platform, config, Object.keys(secrets)),
      }).toEqual({ platform, config, limitation: connector.capabilities.limitation });
      void connector.dispose?.();
    }
  });

  it('names how DingTalk full text comes, with Stream off and on', () => {
    const codes = [false, true].map(
      (streamEvents) =>
        connectionLimitation('dingtalk', { appKey: 'k', operatorId: 'u', streamEvents }, ['appSecret'])?.code,
    );
    expect(codes).toEqual(['dingtalk.blocks', 'dingtalk.blocks-stream']);
  });
});
