// @vitest-environment jsdom
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '@shared/errors';
import { connection, fakeBackend, settings, syncRun } from '../../test/fake-api';
import { renderWithStore } from '../../test/render';
import { NoticeToast } from './NoticeToast';

afterEach(cleanup);

/** A backend whose settings.update answers with the settings asked for, as core does. */
function backendKeepingSettings() {
  let current = settings();
  return fakeBackend({
    'settings.update': (patch: Partial<ReturnType<typeof settings>>) => {
      current = { ...current, ...patch };
      return ok(current);
    },
  });
}

describe('a toast follows a language switch', () => {
  it('a sync-finished toast shown in English reads in Chinese after switching, and back', async () => {
    const { store } = renderWithStore(<NoticeToast />, backendKeepingSettings(), {
      connections: [connection({ id: 'c1', name: 'notes' })],
    });
    act(() =>
      store
        .getState()
        .announceSyncFinished(
          syncRun({ counters: { ...syncRun().counters, added: 1225, updated: 0, deleted: 0 } }),
        ),
    );
    const toast = () => screen.getByRole('status');
    expect(toast().textContent).toContain('“notes” is synced: 1,225 added, 0 updated, 0 removed.');
    await act(() => store.getState().setLanguage('zh'));
    expect(toast().textContent).toContain('“notes”已同步：新增 1,225，更新 0，删除 0。');
    expect(toast().textContent).toContain('关闭');
    await act(() => store.getState().setLanguage('en'));
    expect(toast().textContent).toContain('“notes” is synced');
  });

  it('a failed sync keeps core’s sentence and re-words its lead and headline', async () => {
    const { store } = renderWithStore(<NoticeToast />, backendKeepingSettings(), {
      connections: [connection({ id: 'c1', name: 'notes' })],
    });
    const sentence = 'Cannot reach 127.0.0.1:9 (ECONNREFUSED): the sync stopped after 3 attempts in a row.';
    act(() =>
      store
        .getState()
        .announceSyncFinished(
          syncRun({ status: 'failed', error: { code: 'SOURCE_UNREACHABLE', message: sentence } }),
        ),
    );
    const headline = () => screen.getByRole('alert').querySelector('.error-headline')?.textContent ?? '';
    const detail = () => screen.getByRole('alert').querySelector('.error-detail')?.textContent;
    // English: core's sentence is the headline (describe-error.ts), after the lead.
    expect(headline()).toBe(`Syncing “notes” failed: ${sentence}`);
    await act(() => store.getState().setLanguage('zh'));
    expect(headline()).toMatch(/^“notes”同步失败：/);
    expect(headline()).not.toContain('Syncing');
    expect(detail()).toBe(sentence);
  });

  it('the UI’s own notices (settings saved, copied) are re-worded too', async () => {
    const { store } = renderWithStore(<NoticeToast />, backendKeepingSettings());
    act(() => store.getState().showNotice('info', 'settings.saved'));
    expect(screen.getByRole('status').textContent).toContain('Settings saved.');
    await act(() => store.getState().setLanguage('zh'));
    expect(screen.getByRole('status').textContent).toContain('设置已保存。');
    act(() => store.getState().showNotice('info', 'mcp.copied'));
    await act(() => store.getState().setLanguage('en'));
    expect(screen.getByRole('status').textContent).toContain('Copied.');
  });
});
