/**
 * Which OpenAI-compatible endpoint answers questions: the presets, and how the settings (or the
 * environment, for headless use) turn into one resolved configuration. No network here.
 */
import type { ChatProviderKind, ChatSettingsView } from '@shared/models';
import { CairnError } from '../errors';

export interface ChatPreset {
  label: string;
  baseUrl: string;
  defaultModel: string;
  /**
   * Tokens the model accepts (prompt + answer), used for the prompt budget. Local servers are
   * set to their default context, not the model's maximum, because that is what they load.
   */
  contextWindow: number;
  needsApiKey: boolean;
}

/** Context sizes from the providers' model pages; the budget keeps a margin below them anyway. */
export const CHAT_PRESETS: Record<Exclude<ChatProviderKind, 'none'>, ChatPreset> = {
  // https://help.aliyun.com/zh/model-studio/models (qwen-plus: 131,072 tokens)
  dashscope: {
    label: 'DashScope (Qwen)',
    baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
    defaultModel: 'qwen-plus',
    contextWindow: 131_072,
    needsApiKey: true,
  },
  // https://platform.openai.com/docs/models/gpt-4o-mini (128,000 tokens)
  openai: {
    label: 'OpenAI',
    baseUrl: 'https://api.openai.com/v1',
    defaultModel: 'gpt-4o-mini',
    contextWindow: 128_000,
    needsApiKey: true,
  },
  // https://api-docs.deepseek.com/quick_start/pricing (deepseek-chat: 128K; 64K on older versions, so 64K)
  deepseek: {
    label: 'DeepSeek',
    baseUrl: 'https://api.deepseek.com',
    defaultModel: 'deepseek-chat',
    contextWindow: 65_536,
    needsApiKey: true,
  },
  // Ollama serves a 4,096-token context unless num_ctx is raised (https://github.com/ollama/ollama/blob/main/docs/faq.md).
  ollama: {
    label: 'Ollama (local)',
    baseUrl: 'http://127.0.0.1:11434/v1',
    defaultModel: 'qwen2.5:7b',
    contextWindow: 4_096,
    needsApiKey: false,
  },
  // LM Studio loads models with a 4,096-token context by default.
  lmstudio: {
    label: 'LM Studio (local)',
    baseUrl: 'http://127.0.0.1:1234/v1',
    defaultModel: 'local-model',
    contextWindow: 4_096,
    needsApiKey: false,
  },
  custom: {
    label: 'Custom (OpenAI-compatible)',
    baseUrl: '',
    defaultModel: '',
    contextWindow: 8_192,
    needsApiKey: false,
  },
};

export interface ChatModelConfig {
  provider: Exclude<ChatProviderKind, 'none'>;
  baseUrl: string;
  model: string;
  /** Never logged, never placed in a prompt. Empty for local servers that need none. */
  apiKey: string;
  contextWindow: number;
  /** Time to wait for the response headers (per attempt). @default 60000 */
  requestTimeoutMs?: number;
  /** Longest silence between two streamed chunks before the answer is cut with TIMEOUT. @default 60000 */
  idleTimeoutMs?: number;
  /** Retries of 429/5xx/connection failures by the SDK, honouring Retry-After. @default 1 */
  maxRetries?: number;
}

export interface ChatSettingsInput {
  settings: ChatSettingsView;
  /** The stored chat API key, if any (from the secret store). */
  apiKey: string | null;
  env?: NodeJS.ProcessEnv;
}

/**
 * The configuration to use, or null when no chat model is configured (answers are extractive).
 * CAIRN_CHAT_BASE_URL / CAIRN_CHAT_MODEL / CAIRN_CHAT_API_KEY override the settings, so a
 * headless run can point at any endpoint without touching stored settings.
 */
export function resolveChatModelConfig(input: ChatSettingsInput): ChatModelConfig | null {
  const env = input.env ?? {};
  const envBaseUrl = env.CAIRN_CHAT_BASE_URL?.trim();
  const envModel = env.CAIRN_CHAT_MODEL?.trim();
  const envKey = env.CAIRN_CHAT_API_KEY?.trim();
  const { settings } = input;

  if (envBaseUrl || envModel) {
    const configured = settings.provider === 'none' ? 'custom' : settings.provider;
    const baseUrl = (envBaseUrl || settings.baseUrl || CHAT_PRESETS[configured].baseUrl).replace(/\/+$/, '');
    // An env URL that is a preset's URL gets that preset's context window; any other is custom.
    const provider = envBaseUrl ? presetForBaseUrl(baseUrl) : configured;
    const preset = CHAT_PRESETS[provider];
    const model = envModel || (provider === configured ? settings.model : '') || preset.defaultModel;
    return finish({
      provider,
      baseUrl,
      model,
      apiKey: envKey || input.apiKey || '',
      contextWindow: preset.contextWindow,
    });
  }
  if (settings.provider === 'none') return null;
  const preset = CHAT_PRESETS[settings.provider];
  return finish({
    provider: settings.provider,
    baseUrl: settings.baseUrl || preset.baseUrl,
    model: settings.model || preset.defaultModel,
    apiKey: envKey || input.apiKey || '',
    contextWindow: preset.contextWindow,
  });
}

function presetForBaseUrl(baseUrl: string): Exclude<ChatProviderKind, 'none'> {
  for (const [kind, preset] of Object.entries(CHAT_PRESETS)) {
    if (preset.baseUrl && preset.baseUrl === baseUrl) return kind as Exclude<ChatProviderKind, 'none'>;
  }
  return 'custom';
}

function finish(config: ChatModelConfig): ChatModelConfig {
  if (!config.baseUrl)
    throw new CairnError(
      'INVALID_ARGUMENT',
      'The chat provider needs a base URL (Settings → Chat, or CAIRN_CHAT_BASE_URL).',
    );
  let url: URL;
  try {
    url = new URL(config.baseUrl);
  } catch {
    throw new CairnError('INVALID_ARGUMENT', `The chat base URL is not a valid URL: ${config.baseUrl}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CairnError('INVALID_ARGUMENT', 'The chat base URL must start with http:// or https://.');
  if (!config.model)
    throw new CairnError(
      'INVALID_ARGUMENT',
      'The chat provider needs a model name (Settings → Chat, or CAIRN_CHAT_MODEL).',
    );
  if (CHAT_PRESETS[config.provider].needsApiKey && !config.apiKey) {
    throw new CairnError(
      'AUTH_INVALID',
      `${CHAT_PRESETS[config.provider].label} needs an API key (Settings → Chat, or CAIRN_CHAT_API_KEY).`,
    );
  }
  return { ...config, baseUrl: config.baseUrl.replace(/\/+$/, '') };
}
