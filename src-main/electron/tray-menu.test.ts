import { describe, expect, it } from 'vitest';
import type { ConnectionView } from '@shared/models';
import { trayMenuModel } from './tray-menu';

function connection(id: string, name: string, patch: Partial<ConnectionView> = {}): ConnectionView {
  return {
    id,
    platform: 'folder',
    name,
    mode: 'rag',
    config: {},
    secretFields: [],
    syncStatus: 'synced',
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

describe('trayMenuModel', () => {
  it('lists RAG connections with live progress and disables the running one', () => {
    const items = trayMenuModel({
      connections: [
        connection('a', 'Notes'),
        connection('b', '语雀手册', { platform: 'yuque' }),
        connection('c', 'Live', { mode: 'direct' }),
      ],
      progress: {
        b: {
          connectionId: 'b',
          runId: 1,
          phase: 'embedding',
          documentsDone: 42,
          documentsTotal: 310,
          chunksWritten: 0,
          errors: 0,
        },
      },
      paused: true,
      language: 'en',
    });
    expect(
      items.map((item) =>
        item.type === 'separator'
          ? '---'
          : item.type === 'checkbox'
            ? `${item.label} [${item.checked ? 'x' : ' '}]`
            : `${item.label}${item.enabled ? '' : ' (disabled)'}`,
      ),
    ).toEqual([
      'Open Cairn',
      '---',
      'Sync all now',
      'Notes: synced',
      '语雀手册: Syncing 42/310… (disabled)',
      '---',
      'Pause scheduled sync [x]',
      '---',
      'Quit',
    ]);
  });

  it('speaks Chinese and disables Sync all without RAG connections', () => {
    const items = trayMenuModel({ connections: [], progress: {}, paused: false, language: 'zh' });
    expect(items[2]).toEqual({
      type: 'normal',
      label: '立即全部同步',
      enabled: false,
      action: { kind: 'syncAll' },
    });
  });
});
