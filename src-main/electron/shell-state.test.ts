import { describe, expect, it } from 'vitest';
import { createDemoCairn } from '../host/demo-cairn';
import { observeSettings, ShellState } from './shell-state';

describe('ShellState', () => {
  it('follows the snapshot, then events and settings updates', async () => {
    const cairn = createDemoCairn({ tickMs: 1 });
    const state = new ShellState(cairn.events);
    let changes = 0;
    state.onChange(() => changes++);
    const status = await cairn.api.app.status();
    if (status.ok) state.hydrate(status.value);
    const api = observeSettings(cairn.api, (settings) => state.setSettings(settings));
    const added = await api.connections.add({ platform: 'folder', name: 'Notes', mode: 'rag', config: { path: '/n' }, secrets: {} });
    const finished = new Promise((resolve) => cairn.events.on('sync.finished', resolve));
    if (added.ok) await api.sync.start({ connectionId: added.value.id });
    const sawProgress = new Promise<number>((resolve) => cairn.events.on('sync.progress', () => resolve(Object.keys(state.progress).length)));
    expect(await sawProgress).toBe(1);
    await finished;
    await api.settings.update({ scheduledSyncPaused: true });
    expect({ names: state.connections.map((c) => c.name), syncing: Object.keys(state.progress), paused: state.settings?.scheduledSyncPaused, changed: changes > 3 }).toEqual({ names: ['Notes'], syncing: [], paused: true, changed: true });
    state.dispose();
    await cairn.dispose();
  });
});
