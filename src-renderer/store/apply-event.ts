/**
 * The ONE place where pushed events change the stores (STYLE.md §8). Each handler maps the
 * current state and the event payload to a state patch; components only read the result.
 */
import type { CairnEventName, CairnEvents } from '@shared/contract';
import type { ConnectionView, SyncProgress } from '@shared/models';
import { HOST_CAUSE, type Notice } from './slices/ui-slice';
import type { AppState, AppStore } from './store-types';
import { landDelta } from './stream-text';

type Handlers = { [N in CairnEventName]: (state: AppState, payload: CairnEvents[N]) => Partial<AppState> };

function withoutKey<T>(record: Record<string, T>, key: string): Record<string, T> {
  const { [key]: _removed, ...rest } = record;
  return rest;
}

/**
 * A warning about a connection goes with the connection. (A later clean sync of it clears it too:
 * 'sync.finished'; so does saving its edited credentials: connections-slice updateConnection.)
 */
export function clearResolvedNotice(notice: Notice | null, connections: ConnectionView[]): Notice | null {
  if (!notice?.cause || notice.cause === HOST_CAUSE) return notice;
  return connections.some((item) => item.id === notice.cause) ? notice : null;
}

/**
 * A sync's last progress, kept from its end until the connection's stored counts arrive
 * (connections.changed comes after sync.finished): the card's tiles never drop to the old counts
 * (0 after a first sync) in between.
 */
function settle(state: AppState, connectionId: string, last: SyncProgress | undefined): Partial<AppState> {
  return {
    progress: withoutKey(state.progress, connectionId),
    settledProgress: last ? { ...state.settledProgress, [connectionId]: last } : state.settledProgress,
  };
}

const handlers: Handlers = {
  'sync.progress': (state, progress) => ({
    ...(progress.phase === 'done'
      ? settle(state, progress.connectionId, progress)
      : { progress: { ...state.progress, [progress.connectionId]: progress } }),
    connections: state.connections.map((connection) =>
      connection.id === progress.connectionId &&
      progress.phase !== 'done' &&
      connection.syncStatus !== 'syncing'
        ? { ...connection, syncStatus: 'syncing' }
        : connection,
    ),
  }),
  'sync.finished': (state, run) => ({
    lastRun: { ...state.lastRun, [run.connectionId]: run },
    ...settle(
      state,
      run.connectionId,
      state.progress[run.connectionId] ?? state.settledProgress[run.connectionId],
    ),
    notice: run.status === 'succeeded' && state.notice?.cause === run.connectionId ? null : state.notice,
  }),
  'connections.changed': (state, connections) => ({
    connections,
    notice: clearResolvedNotice(state.notice, connections),
    // The stored counts are current again once the row no longer says it is syncing.
    settledProgress: Object.fromEntries(
      Object.entries(state.settledProgress).filter(([id]) =>
        connections.some((connection) => connection.id === id && connection.syncStatus === 'syncing'),
      ),
    ),
    progress: Object.fromEntries(
      Object.entries(state.progress).filter(([id]) => connections.some((connection) => connection.id === id)),
    ),
  }),
  'reindex.progress': (_state, reindex) => ({ reindex }),
  'models.progress': (state, progress) => ({
    modelProgress: { ...state.modelProgress, [progress.id]: progress },
  }),
  // A finished (or failed) download ends its progress; the snapshot says what is installed now.
  'models.changed': (state, models) => ({
    models,
    modelProgress: Object.fromEntries(
      Object.entries(state.modelProgress).filter(([id]) =>
        models.models.some((model) => model.id === id && model.download?.state === 'running'),
      ),
    ),
  }),
  // A cancelled sign-in is not a failure (STYLE.md §6): the card simply returns to "Sign in".
  'auth.finished': (state, outcome) => ({
    signIn: outcome.ok
      ? { ...state.signIn, [outcome.connectionId]: { phase: 'succeeded' } }
      : outcome.error?.code === 'CANCELLED'
        ? withoutKey(state.signIn, outcome.connectionId)
        : {
            ...state.signIn,
            [outcome.connectionId]: {
              phase: 'failed',
              error: outcome.error ?? { code: 'INTERNAL', message: '' },
            },
          },
  }),
  'chat.token': (state, token) => {
    const known = state.exchanges.some((exchange) => exchange.messageId === token.messageId);
    if (!known)
      return {
        earlyTokens: {
          ...state.earlyTokens,
          [token.messageId]: landDelta(state.earlyTokens[token.messageId] ?? '', token.offset, token.delta)
            .text,
        },
      };
    return {
      exchanges: state.exchanges.map((exchange) =>
        exchange.messageId === token.messageId && exchange.status !== 'done'
          ? { ...exchange, text: landDelta(exchange.text, token.offset, token.delta).text }
          : exchange,
      ),
    };
  },
  'chat.done': (state, answer) => {
    const known = state.exchanges.some((exchange) => exchange.messageId === answer.messageId);
    if (!known) return { earlyAnswers: { ...state.earlyAnswers, [answer.messageId]: answer } };
    return {
      exchanges: state.exchanges.map((exchange) =>
        exchange.messageId === answer.messageId
          ? { ...exchange, text: answer.text, answer, status: 'done' }
          : exchange,
      ),
    };
  },
};

/**
 * Follow-ups an event asks for that a state patch cannot express, such as re-fetching. Kept here
 * so that this file remains the one place where events lead to changes.
 */
const effects: { [N in CairnEventName]?: (store: AppStore, payload: CairnEvents[N]) => void } = {
  // Tokens before this one never arrived (the event stream broke): read what was streamed so far.
  'chat.token': (store, token) => {
    const exchange = store.getState().exchanges.find((candidate) => candidate.messageId === token.messageId);
    if (exchange?.status === 'streaming' && token.offset > exchange.text.length)
      void store.getState().catchUpAnswers();
  },
  // The browser host has no tray: a finished or failed sync is told here (Electron's shell notifies itself).
  'sync.finished': (store, run) => store.getState().announceSyncFinished(run),
  // An answer moved its conversation to the top of the history (and a first answer created it).
  'chat.done': (store) => {
    if (store.getState().conversationsStatus !== 'idle') void store.getState().loadConversations();
  },
};

export function applyEvent<N extends CairnEventName>(
  store: AppStore,
  name: N,
  payload: CairnEvents[N],
): void {
  const handler = handlers[name] as
    ((state: AppState, payload: CairnEvents[N]) => Partial<AppState>) | undefined;
  if (handler) store.setState((state) => handler(state, payload));
  const effect = effects[name] as ((store: AppStore, payload: CairnEvents[N]) => void) | undefined;
  effect?.(store, payload);
}
