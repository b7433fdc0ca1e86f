import { describe, expect, it } from 'vitest';
import type { ChatSettingsView } from '@shared/models';
import { CHAT_PRESETS, resolveChatModelConfig } from './chat-provider';

const settings = (patch: Partial<ChatSettingsView>): ChatSettingsView => ({
  provider: 'none',
  baseUrl: '',
  model: '',
  hasApiKey: false,
  topK: 10,
  ...patch,
});

describe('resolveChatModelConfig', () => {
  it('returns null when no provider is chosen and the environment names none', () => {
    expect(resolveChatModelConfig({ settings: settings({}), apiKey: null, env: {} })).toBeNull();
  });

  it('fills a preset and keeps its context window', () => {
    expect(
      resolveChatModelConfig({
        settings: settings({ provider: 'dashscope' }),
        apiKey: 'sk-dash-123456',
        env: {},
      }),
    ).toEqual({
      provider: 'dashscope',
      baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
      model: 'qwen-plus',
      apiKey: 'sk-dash-123456',
      contextWindow: 131_072,
    });
    expect(
      resolveChatModelConfig({
        settings: settings({ provider: 'ollama', model: 'qwen2.5:14b' }),
        apiKey: null,
      }),
    ).toMatchObject({
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'qwen2.5:14b',
      apiKey: '',
      contextWindow: 4_096,
    });
    expect(CHAT_PRESETS.deepseek).toMatchObject({
      baseUrl: 'https://api.deepseek.com',
      defaultModel: 'deepseek-chat',
    });
    expect(CHAT_PRESETS.openai.defaultModel).toBe('gpt-4o-mini');
    expect(CHAT_PRESETS.lmstudio.baseUrl).toBe('http://127.0.0.1:1234/v1');
  });

  it('lets CAIRN_CHAT_* override the settings for headless runs', () => {
    const env = {
      CAIRN_CHAT_BASE_URL: 'http://127.0.0.1:5555/v1/',
      CAIRN_CHAT_API_KEY: 'sk-env-123456',
      CAIRN_CHAT_MODEL: 'my-model',
    };
    expect(resolveChatModelConfig({ settings: settings({}), apiKey: null, env })).toEqual({
      provider: 'custom',
      baseUrl: 'http://127.0.0.1:5555/v1',
      model: 'my-model',
      apiKey: 'sk-env-123456',
      contextWindow: 8_192,
    });
    // An env URL that is a preset's URL gets that preset's window.
    expect(
      resolveChatModelConfig({
        settings: settings({}),
        apiKey: null,
        env: { ...env, CAIRN_CHAT_BASE_URL: 'https://api.deepseek.com' },
      }),
    ).toMatchObject({ provider: 'deepseek', contextWindow: 65_536 });
  });

  it('rejects a configuration that cannot work, with a code and a fix', () => {
    expect(() =>
      resolveChatModelConfig({ settings: settings({ provider: 'openai' }), apiKey: null }),
    ).toThrow(expect.objectContaining({ code: 'AUTH_INVALID' }));
    expect(() =>
      resolveChatModelConfig({ settings: settings({ provider: 'custom' }), apiKey: null }),
    ).toThrow(/needs a base URL/);
    expect(() =>
      resolveChatModelConfig({
        settings: settings({ provider: 'custom', baseUrl: 'ftp://x', model: 'm' }),
        apiKey: null,
      }),
    ).toThrow(/http/);
  });
});
