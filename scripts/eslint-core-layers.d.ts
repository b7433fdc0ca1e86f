import type { Rule } from 'eslint';

/** Each core folder and the core folders it may import; '*': any. */
export type CoreLayers = Record<string, readonly string[] | '*'>;

export const coreLayersRule: Rule.RuleModule;

export function layerOrder(
  layers: CoreLayers,
): { order: string[]; cycle?: undefined } | { cycle: string[]; order?: undefined };
