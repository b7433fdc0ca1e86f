import { describe, expect, it } from 'vitest';
import { ok } from '@shared/errors';
import type { SyncProgress } from '@shared/models';
import { connection, fakeBackend, snapshot } from '../test/fake-api';
import { createHttpTransport } from '../transport/http-transport';
import { createAppStore } from './app-store';
import { connectStore } from './connect-store';

const progress = (done: number, phase: SyncProgress['phase'] = 'embedding'): SyncProgress => ({
  connectionId: 'c1',
  runId: 7,
  phase,
  documentsDone: done,
  documentsTotal: 10,
  chunksWritten: 0,
  errors: 0,
});

/** An EventSource the test opens by hand: the host sends nothing to a stream before it accepted it. */
class ManualEventSource {
  static last: ManualEventSource | null = null;
  onmessage: ((message: MessageEvent<string>) => void) | null = null;
  onopen: (() => void) | null = null;
  constructor(readonly url: string) {
    ManualEventSource.last = this;
  }
  close() {}
}

describe('connectStore (snapshot, then deltas)', () => {
  it('hydrates from app.status, replays events that raced it, then applies every later event', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const backend = fakeBackend({
      'app.status': async () => {
        await gate;
        return ok(snapshot({ connections: [connection()] }));
      },
    });
    const { store } = createAppStore(backend.api);
    const disconnect = connectStore(store, backend.transport);
    backend.emit('sync.progress', progress(3));
    expect(store.getState().phase).toBe('loading');
    release();
    await gate;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect({
      phase: store.getState().phase,
      status: store.getState().connections[0]?.syncStatus,
      done: store.getState().progress.c1?.documentsDone,
    }).toEqual({ phase: 'ready', status: 'syncing', done: 3 });

    backend.emit('sync.progress', progress(10, 'done'));
    backend.emit('connections.changed', [
      connection({ syncStatus: 'synced', documentCount: 10, chunkCount: 31 }),
    ]);
    expect({ progress: store.getState().progress, card: store.getState().connections[0] }).toMatchObject({
      progress: {},
      card: { syncStatus: 'synced', documentCount: 10, chunkCount: 31 },
    });
    disconnect();
    backend.emit('connections.changed', []);
    expect(store.getState().connections).toHaveLength(1);
  });

  it('shows a failed start instead of spinning forever', async () => {
    const backend = fakeBackend({});
    const { store } = createAppStore(backend.api);
    connectStore(store, backend.transport);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect({ phase: store.getState().phase, error: store.getState().loadError }).toEqual({
      phase: 'failed',
      error: { code: 'UNSUPPORTED', message: 'no fake for app.status' },
    });
  });

  it('fetches a fresh snapshot when the event stream comes back, replaying events that raced it', async () => {
    let status = snapshot({
      connections: [connection({ syncStatus: 'syncing' })],
      syncing: { c1: progress(3) },
    });
    let release: () => void = () => {};
    const backend = fakeBackend({
      'app.status': async () => {
        await new Promise<void>((resolve) => (release = resolve));
        return ok(status);
      },
    });
    const { store } = createAppStore(backend.api);
    connectStore(store, backend.transport);
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const before = { phase: store.getState().phase, done: store.getState().progress.c1?.documentsDone };
    // Missed while the stream was down: the sync finished. Then the stream is back.
    status = snapshot({
      connections: [connection({ syncStatus: 'synced', documentCount: 10 })],
      syncing: {},
    });
    backend.reconnect();
    backend.emit('connections.changed', [
      connection({ syncStatus: 'synced', documentCount: 10, name: 'Renamed meanwhile' }),
    ]);
    const whileLoading = { phase: store.getState().phase, name: store.getState().connections[0]?.name };
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect({
      before,
      whileLoading,
      after: {
        progress: store.getState().progress,
        card: store.getState().connections.map((c) => [c.name, c.syncStatus, c.documentCount]),
      },
    }).toEqual({
      before: { phase: 'ready', done: 3 },
      whileLoading: { phase: 'ready', name: 'Notes' },
      after: { progress: {}, card: [['Renamed meanwhile', 'synced', 10]] },
    });
  });

  it('over HTTP, fetches the snapshot again once the event stream is open: a sync that finished before it opened is not left showing its progress', async () => {
    // "Rebuild index" reloads the page while the rebuild's sync runs: the first snapshot says
    // syncing, and the sync finishes before the browser's event stream reaches the host.
    let status = snapshot({
      connections: [connection({ syncStatus: 'syncing', lastSyncAt: null })],
      syncing: { c1: progress(0, 'fetching') },
    });
    const fetchStatus = (async () =>
      new Response(JSON.stringify(ok(status)), { status: 200 })) as unknown as typeof fetch;
    const transport = createHttpTransport({
      origin: 'http://127.0.0.1:9',
      token: 't',
      fetch: fetchStatus,
      EventSource: ManualEventSource as unknown as typeof EventSource,
    });
    const { store } = createAppStore(transport.api);
    connectStore(store, transport);
    await new Promise((resolve) => setTimeout(resolve, 0));
    const beforeOpen = {
      phase: store.getState().phase,
      done: store.getState().progress.c1?.documentsDone,
    };
    status = snapshot({
      connections: [
        connection({ syncStatus: 'synced', documentCount: 7, lastSyncAt: '2026-12-04T17:00:00Z' }),
      ],
      syncing: {},
    });
    ManualEventSource.last!.onopen?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect({
      beforeOpen,
      progress: store.getState().progress,
      card: store.getState().connections.map((c) => [c.syncStatus, c.documentCount, c.lastSyncAt]),
    }).toEqual({
      beforeOpen: { phase: 'ready', done: 0 },
      progress: {},
      card: [['synced', 7, '2026-12-04T17:00:00Z']],
    });
  });
});
