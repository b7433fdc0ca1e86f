/** A scriptable CairnApi for renderer tests: each wire name answers from a handler; calls are recorded. */
import { buildApiProxy, type CairnEventListener } from '@shared/bridge';
import type { ApiChannel, CairnApi, CairnEventName, CairnEvents } from '@shared/contract';
import { fail, type Result } from '@shared/errors';
import type { ConnectionView, SettingsView, StatusSnapshot, SyncRunView } from '@shared/models';
import type { Transport } from '../transport/transport';

export type Handlers = Partial<
  Record<ApiChannel, (input: never) => Result<unknown> | Promise<Result<unknown>>>
>;

export interface FakeBackend {
  api: CairnApi;
  calls: { channel: string; input: unknown }[];
  transport: Transport;
  emit<N extends CairnEventName>(name: N, payload: CairnEvents[N]): void;
  /** The event stream came back after a break. */
  reconnect(): void;
}

export function fakeBackend(handlers: Handlers): FakeBackend {
  const calls: { channel: string; input: unknown }[] = [];
  const listeners = new Set<CairnEventListener>();
  const reconnectListeners = new Set<() => void>();
  const api = buildApiProxy(async (channel, input) => {
    calls.push({ channel, input });
    const handler = handlers[channel as ApiChannel] as
      ((input: unknown) => Result<unknown> | Promise<Result<unknown>>) | undefined;
    return handler ? handler(input) : fail('UNSUPPORTED', `no fake for ${channel}`);
  });
  return {
    api,
    calls,
    transport: {
      kind: 'http',
      api,
      subscribe: (listener) => (listeners.add(listener), () => listeners.delete(listener)),
      onStreamOpen: (listener) => (
        reconnectListeners.add(listener),
        () => reconnectListeners.delete(listener)
      ),
      dispose: () => listeners.clear(),
    },
    emit: (name, payload) => listeners.forEach((listener) => listener(name, payload)),
    reconnect: () => reconnectListeners.forEach((listener) => listener()),
  };
}

/** The calls a test's actions made, without the views' own reads (cards' last run, suggested topics, filter facets, Settings' data-directory size). */
export function userCalls(backend: FakeBackend): { channel: string; input: unknown }[] {
  const ownReads = new Set(['sync.runs', 'documents.topics', 'search.facets', 'app.status']);
  return backend.calls.filter((call) => !ownReads.has(call.channel));
}

export function settings(patch: Partial<SettingsView> = {}): SettingsView {
  return {
    embedding: {
      provider: 'builtin',
      baseUrl: '',
      model: 'cairn-hash-v1',
      dimensions: 1024,
      hasApiKey: false,
    },
    chat: { provider: 'none', baseUrl: '', model: '', hasApiKey: false, topK: 10 },
    models: { source: 'huggingface', mirrorUrl: '' },
    reranker: { enabled: true, model: '', budgetMs: 300 },
    syncIntervalHours: 24,
    scheduledSyncPaused: false,
    language: 'en',
    ...patch,
  };
}

export function connection(patch: Partial<ConnectionView> = {}): ConnectionView {
  return {
    id: 'c1',
    platform: 'folder',
    name: 'Notes',
    mode: 'rag',
    config: { path: '/n' },
    secretFields: [],
    syncStatus: 'idle',
    syncError: null,
    syncErrorCode: null,
    lastSyncAt: null,
    nextSyncAt: null,
    documentCount: 0,
    chunkCount: 0,
    limitation: null,
    limitationCode: null,
    experimental: false,
    ...patch,
  };
}

export function snapshot(patch: Partial<StatusSnapshot> = {}): StatusSnapshot {
  return {
    version: 'test',
    dataDir: '/data',
    secretStorage: { kind: 'keychain', path: null },
    connections: [],
    settings: settings(),
    reindex: {
      running: false,
      done: 0,
      total: 0,
      activeSpace: '',
      pendingSpace: null,
    },
    syncing: {},
    storage: null,
    ...patch,
  };
}

/** A finished run (succeeded, nothing counted) to patch. */
export function syncRun(patch: Partial<SyncRunView> = {}): SyncRunView {
  return {
    id: 1,
    connectionId: 'c1',
    status: 'succeeded',
    startedAt: '2025-01-01T00:00:00.000Z',
    finishedAt: '2025-01-01T00:01:00.000Z',
    counters: {
      seen: 0,
      added: 0,
      updated: 0,
      unchanged: 0,
      deleted: 0,
      failed: 0,
      deferred: 0,
      skipped: 0,
      chunksWritten: 0,
    },
    errors: [],
    notes: [],
    skippedKinds: {},
    error: null,
    ...patch,
  };
}
