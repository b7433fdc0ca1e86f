/** Defaults the Settings form fills in when a provider is picked (the user can edit every field). */
import type { ChatProviderKind, EmbeddingProviderKind } from '@shared/models';

export interface EmbeddingPreset {
  baseUrl: string;
  model: string;
  dimensions: number;
  needsKey: boolean;
  paid: boolean;
}

export const EMBEDDING_PRESETS: Record<EmbeddingProviderKind, EmbeddingPreset> = {
  builtin: { baseUrl: '', model: 'cairn-hash-v1', dimensions: 1024, needsKey: false, paid: false },
  // A model from the local catalogue (chosen in the local models section; its width comes from the catalogue).
  local: { baseUrl: '', model: 'bge-small-zh-v1.5', dimensions: 512, needsKey: false, paid: false },
  // https://help.aliyun.com/zh/model-studio/text-embedding-synchronous-api (OpenAI-compatible mode)
  dashscope: {
    baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
    model: 'text-embedding-v3',
    dimensions: 1024,
    needsKey: true,
    paid: true,
  },
  // https://platform.openai.com/docs/guides/embeddings (dimensions shortens text-embedding-3 vectors)
  openai: {
    baseUrl: 'https://api.openai.com/v1',
    model: 'text-embedding-3-small',
    dimensions: 1024,
    needsKey: true,
    paid: true,
  },
  ollama: {
    baseUrl: 'http://127.0.0.1:11434/v1',
    model: 'bge-m3',
    dimensions: 1024,
    needsKey: false,
    paid: false,
  },
  custom: { baseUrl: '', model: '', dimensions: 1024, needsKey: true, paid: true },
};

export const CHAT_PRESETS: Record<ChatProviderKind, { baseUrl: string; model: string; needsKey: boolean }> = {
  none: { baseUrl: '', model: '', needsKey: false },
  dashscope: {
    baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
    model: 'qwen-plus',
    needsKey: true,
  },
  openai: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', needsKey: true },
  deepseek: { baseUrl: 'https://api.deepseek.com', model: 'deepseek-chat', needsKey: true },
  ollama: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5:7b', needsKey: false },
  lmstudio: { baseUrl: 'http://127.0.0.1:1234/v1', model: '', needsKey: false },
  custom: { baseUrl: '', model: '', needsKey: true },
};
