/**
 * Main's own copy of what the tray and notifications need, kept the renderer's way: one snapshot
 * (app.status), then pushed events. Settings have no event, so the shell observes settings.update
 * through `observeSettings` wrapped around the api it serves.
 */
import type { CairnApi } from '@shared/contract';
import type { ConnectionView, SettingsView, StatusSnapshot, SyncProgress } from '@shared/models';
import type { EventBus, Unsubscribe } from '../core/events/event-bus';

export class ShellState {
  connections: ConnectionView[] = [];
  progress: Record<string, SyncProgress> = {};
  settings: SettingsView | null = null;
  private readonly listeners = new Set<() => void>();
  private readonly unsubscribe: Unsubscribe[];

  constructor(events: EventBus) {
    this.unsubscribe = [
      events.on('connections.changed', (connections) => {
        this.connections = connections;
        this.changed();
      }),
      events.on('sync.progress', (progress) => {
        if (progress.phase === 'done') delete this.progress[progress.connectionId];
        else this.progress[progress.connectionId] = progress;
        this.changed();
      }),
      events.on('sync.finished', (run) => {
        delete this.progress[run.connectionId];
        this.changed();
      }),
    ];
  }

  hydrate(snapshot: StatusSnapshot): void {
    this.connections = snapshot.connections;
    this.progress = { ...snapshot.syncing };
    this.settings = snapshot.settings;
    this.changed();
  }

  setSettings(settings: SettingsView): void {
    this.settings = settings;
    this.changed();
  }

  onChange(listener: () => void): Unsubscribe {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  dispose(): void {
    for (const stop of this.unsubscribe) stop();
    this.listeners.clear();
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

/** Passes every successful settings.update result to `onSettings`. */
export function observeSettings(api: CairnApi, onSettings: (settings: SettingsView) => void): CairnApi {
  return {
    ...api,
    settings: {
      get: () => api.settings.get(),
      reindexCost: () => api.settings.reindexCost(),
      testChat: (input) => api.settings.testChat(input),
      testEmbedding: (input) => api.settings.testEmbedding(input),
      async update(patch) {
        const result = await api.settings.update(patch);
        if (result.ok) onSettings(result.value);
        return result;
      },
    },
  };
}
