/**
 * Headless provider settings from the environment (CAIRN_EMBED_BASE_URL, CAIRN_EMBED_API_KEY,
 * CAIRN_EMBED_MODEL, CAIRN_EMBED_DIMENSIONS): an overlay on the stored settings for this run only,
 * so CI and servers need no settings file and the key never lands on disk.
 */
import { z } from 'zod';
import type { EmbeddingSettingsView } from '../../../src-shared/models';
import { parseInput } from './validation';

export type EmbeddingOverride = Partial<Omit<EmbeddingSettingsView, 'hasApiKey'>> & { apiKey?: string };

const envSchema = z.object({
  CAIRN_EMBED_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  CAIRN_EMBED_API_KEY: z.string().optional(),
  CAIRN_EMBED_MODEL: z.string().max(200).optional(),
  CAIRN_EMBED_DIMENSIONS: z.coerce.number().int().min(1).max(8192).optional(),
});

/** Null when no CAIRN_EMBED_* variable is set. A base URL selects the OpenAI-compatible 'custom' provider. */
export function embeddingOverrideFromEnv(env: NodeJS.ProcessEnv): EmbeddingOverride | null {
  const present = Object.fromEntries(Object.entries(env).filter(([key, value]) => key.startsWith('CAIRN_EMBED_') && key in envSchema.shape && value !== undefined && value !== ''));
  if (Object.keys(present).length === 0) return null;
  const parsed = parseInput(envSchema, present, 'CAIRN_EMBED_* environment');
  const override: EmbeddingOverride = {};
  if (parsed.CAIRN_EMBED_BASE_URL) Object.assign(override, { provider: 'custom', baseUrl: parsed.CAIRN_EMBED_BASE_URL });
  if (parsed.CAIRN_EMBED_API_KEY) override.apiKey = parsed.CAIRN_EMBED_API_KEY;
  if (parsed.CAIRN_EMBED_MODEL) override.model = parsed.CAIRN_EMBED_MODEL;
  if (parsed.CAIRN_EMBED_DIMENSIONS) override.dimensions = parsed.CAIRN_EMBED_DIMENSIONS;
  return override;
}
