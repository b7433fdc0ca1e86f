import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncRunView } from '@shared/models';
import { createCairn, type CairnInternals } from '../core/app/create-cairn';
import { silentLogger } from '../core/logging/logger';
import { observeSettings, ShellState } from './shell-state';

let cairn: CairnInternals;
let notes: string;

beforeAll(async () => {
  notes = await mkdtemp(join(tmpdir(), 'cairn-shell-notes-'));
  await writeFile(
    join(notes, 'vpn.md'),
    '# VPN setup\n\nInstall the client, then sign in with your work account.\n',
  );
  await writeFile(join(notes, '报销.md'), '# 报销流程\n\n提交发票后，财务在五个工作日内处理。\n');
  await writeFile(join(notes, 'onboarding.md'), '# Onboarding\n\nYour laptop arrives on the first day.\n');
  cairn = await createCairn({ scheduler: false, env: {}, logger: silentLogger() });
});

afterAll(async () => {
  await cairn.dispose();
  await rm(notes, { recursive: true, force: true });
});

describe('ShellState', () => {
  it('follows the snapshot, then events and settings updates', async () => {
    const state = new ShellState(cairn.events);
    let changes = 0;
    state.onChange(() => changes++);
    const status = await cairn.api.app.status();
    if (status.ok) state.hydrate(status.value);
    const api = observeSettings(cairn.api, (settings) => state.setSettings(settings));
    const added = await api.connections.add({
      platform: 'folder',
      name: 'Notes',
      mode: 'rag',
      config: { path: notes },
      secrets: {},
    });
    if (!added.ok) throw new Error(added.error.message);
    // Registered after ShellState's own listeners, so each sees the state as the event left it.
    const inProgress: string[][] = [];
    cairn.events.on('sync.progress', (progress) => {
      if (progress.phase !== 'done') inProgress.push(Object.keys(state.progress));
    });
    const finished = new Promise<SyncRunView>((resolve) => cairn.events.on('sync.finished', resolve));
    const started = await api.sync.start({ connectionId: added.value.id });
    expect(started.ok).toBe(true);
    const run = await finished;
    await cairn.whenIdle();
    expect({ status: run.status, indexed: run.counters.added }).toEqual({ status: 'succeeded', indexed: 3 });
    expect(inProgress.length).toBeGreaterThan(0);
    expect(inProgress.every((ids) => ids.length === 1 && ids[0] === added.value.id)).toBe(true);
    await api.settings.update({ scheduledSyncPaused: true });
    expect({
      names: state.connections.map((c) => c.name),
      syncing: Object.keys(state.progress),
      paused: state.settings?.scheduledSyncPaused,
      changed: changes > 3,
    }).toEqual({ names: ['Notes'], syncing: [], paused: true, changed: true });
    state.dispose();
  });
});
