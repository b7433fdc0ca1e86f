/**
 * What the tray menu shows, as plain data (the Electron Menu is built from it in tray.ts), so the
 * labels and states are testable without Electron.
 */
import type { ConnectionView, SyncProgress } from '@shared/models';

export type TrayAction =
  | { kind: 'open' }
  | { kind: 'syncAll' }
  | { kind: 'sync'; connectionId: string }
  | { kind: 'togglePause' }
  | { kind: 'quit' };

export type TrayMenuItem =
  | { type: 'separator' }
  | { type: 'normal'; label: string; enabled: boolean; action: TrayAction }
  | { type: 'checkbox'; label: string; checked: boolean; action: TrayAction };

export interface TrayState {
  connections: ConnectionView[];
  progress: Record<string, SyncProgress>;
  paused: boolean;
  language: 'en' | 'zh';
}

const TEXT = {
  en: {
    open: 'Open Cairn',
    syncAll: 'Sync all now',
    pause: 'Pause scheduled sync',
    quit: 'Quit',
    syncing: (done: number, total: number) => `Syncing ${done}/${total}…`,
    starting: 'Syncing…',
    synced: 'synced',
    failed: 'failed',
    idle: 'not synced yet',
  },
  zh: {
    open: '打开 Cairn',
    syncAll: '立即全部同步',
    pause: '暂停定时同步',
    quit: '退出',
    syncing: (done: number, total: number) => `同步中 ${done}/${total}…`,
    starting: '同步中…',
    synced: '已同步',
    failed: '同步失败',
    idle: '尚未同步',
  },
};

export function trayMenuModel(state: TrayState): TrayMenuItem[] {
  const text = TEXT[state.language];
  const rag = state.connections.filter((connection) => connection.mode === 'rag');
  const items: TrayMenuItem[] = [
    { type: 'normal', label: text.open, enabled: true, action: { kind: 'open' } },
    { type: 'separator' },
    { type: 'normal', label: text.syncAll, enabled: rag.length > 0, action: { kind: 'syncAll' } },
  ];
  for (const connection of rag) {
    const progress = state.progress[connection.id];
    const running = progress !== undefined || connection.syncStatus === 'syncing';
    const status =
      progress && progress.documentsTotal > 0
        ? text.syncing(progress.documentsDone, progress.documentsTotal)
        : running
          ? text.starting
          : text[connection.syncStatus === 'syncing' ? 'idle' : connection.syncStatus];
    items.push({
      type: 'normal',
      label: `${connection.name}: ${status}`,
      enabled: !running,
      action: { kind: 'sync', connectionId: connection.id },
    });
  }
  items.push(
    { type: 'separator' },
    { type: 'checkbox', label: text.pause, checked: state.paused, action: { kind: 'togglePause' } },
    { type: 'separator' },
    { type: 'normal', label: text.quit, enabled: true, action: { kind: 'quit' } },
  );
  return items;
}
