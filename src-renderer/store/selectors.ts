import type { AppState } from './store-types';
import type { Language } from '../i18n/i18n';

export function selectLanguage(state: AppState): Language {
  const chosen = state.settings?.language ?? 'system';
  return chosen === 'system' ? state.systemLanguage : chosen;
}

export function selectRagConnections(state: AppState) {
  return state.connections.filter((connection) => connection.mode === 'rag');
}

export function selectIsAnswering(state: AppState): boolean {
  return state.exchanges.some((exchange) => exchange.status === 'asking' || exchange.status === 'streaming');
}
