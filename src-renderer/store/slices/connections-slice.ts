import type { Result } from '@shared/errors';
import type {
  ConnectionMode,
  ConnectionUpdate,
  ConnectionView,
  CoreMessage,
  FolderPreview,
  NewConnection,
  SyncProgress,
  SyncRunView,
} from '@shared/models';
import type { GetState, SetState, StoreDeps } from '../store-types';

export interface ConnectionsSlice {
  connections: ConnectionView[];
  /** Latest progress of running syncs, by connection id. */
  progress: Record<string, SyncProgress>;
  /** A finished sync's last progress, until the connection's stored counts arrive (apply-event `settle`). */
  settledProgress: Record<string, SyncProgress>;
  /** The most recent finished run, by connection id (per-document errors live here). */
  lastRun: Record<string, SyncRunView>;
  addConnection(input: NewConnection): Promise<Result<ConnectionView>>;
  testNewConnection(input: NewConnection): Promise<Result<CoreMessage>>;
  updateConnection(input: ConnectionUpdate): Promise<Result<ConnectionView>>;
  testConnectionUpdate(input: ConnectionUpdate): Promise<Result<CoreMessage>>;
  testConnection(id: string): Promise<void>;
  setMode(id: string, mode: ConnectionMode): Promise<void>;
  syncNow(id: string): Promise<void>;
  syncAll(): Promise<void>;
  cancelSync(id: string): Promise<void>;
  removeConnection(id: string): Promise<void>;
  /** `quiet`: a failure shows nothing (the card asks on its own, not the user). */
  loadLastRun(id: string, options?: { quiet?: boolean }): Promise<void>;
  /** What a folder would index, before it is added. */
  previewFolder(path: string, exclude?: string): Promise<Result<FolderPreview>>;
  /** The desktop app's native folder picker; UNSUPPORTED in the browser. */
  pickFolder(): Promise<Result<{ path: string | null }>>;
}

function upsert(list: ConnectionView[], view: ConnectionView): ConnectionView[] {
  return list.some((item) => item.id === view.id)
    ? list.map((item) => (item.id === view.id ? view : item))
    : [...list, view];
}

export function createConnectionsSlice(set: SetState, get: GetState, { api }: StoreDeps): ConnectionsSlice {
  const report = (result: Result<unknown>, connectionId?: string) => {
    if (!result.ok) get().showError(result.error, connectionId);
  };
  return {
    connections: [],
    progress: {},
    settledProgress: {},
    lastRun: {},
    async addConnection(input) {
      const result = await api.connections.add(input);
      if (result.ok) set((state) => ({ connections: upsert(state.connections, result.value) }));
      return result;
    },
    testNewConnection: (input) => api.connections.testNew(input),
    previewFolder: (path, exclude) => api.connections.previewFolder(exclude ? { path, exclude } : { path }),
    pickFolder: () => api.app.pickFolder(),
    async updateConnection(input) {
      const failed = get().connections.find((item) => item.id === input.id)?.syncStatus === 'failed';
      const result = await api.connections.update(input);
      // Saved credentials answer a warning about this connection: it is no longer current.
      if (result.ok)
        set((state) => ({
          connections: upsert(state.connections, result.value),
          ...(state.notice?.cause === input.id ? { notice: null } : {}),
        }));
      // An edit of a failed connection is a fix: sync with it now rather than leave "Failed" up for a day.
      if (result.ok && failed && result.value.mode === 'rag') await get().syncNow(input.id);
      return result;
    },
    testConnectionUpdate: (input) => api.connections.testUpdate(input),
    async testConnection(id) {
      const before = get().connections.find((item) => item.id === id);
      const result = await api.connections.test({ id });
      if (result.ok) get().showSuccess(result.value);
      else report(result, id);
      // A failed connection that passes its Test again (the folder is back, the server is up): sync it.
      if (result.ok && before?.syncStatus === 'failed' && before.mode === 'rag') await get().syncNow(id);
    },
    async setMode(id, mode) {
      const result = await api.connections.setMode({ id, mode });
      if (result.ok) set((state) => ({ connections: upsert(state.connections, result.value) }));
      else report(result, id);
    },
    async syncNow(id) {
      report(await api.sync.start({ connectionId: id }), id);
    },
    async syncAll() {
      report(await api.sync.startAll());
    },
    async cancelSync(id) {
      report(await api.sync.cancel({ connectionId: id }), id);
    },
    async removeConnection(id) {
      const result = await api.connections.remove({ id });
      if (result.ok)
        set((state) => ({
          connections: state.connections.filter((item) => item.id !== id),
          ...(state.notice?.cause === id ? { notice: null } : {}),
        }));
      else report(result, id);
    },
    async loadLastRun(id, options = {}) {
      const result = await api.sync.runs({ connectionId: id, limit: 1 });
      const [run] = result.ok ? result.value : [];
      // A run that finished meanwhile (sync.finished) is newer than this answer: keep it.
      if (run) set((state) => (state.lastRun[id] ? {} : { lastRun: { ...state.lastRun, [id]: run } }));
      else if (!options.quiet) report(result);
    },
  };
}
