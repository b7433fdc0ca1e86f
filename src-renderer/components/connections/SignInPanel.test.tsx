// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '@shared/errors';
import type { ConnectionView } from '@shared/models';
import { applyEvent } from '../../store/apply-event';
import { useApp } from '../../store/store-context';
import { connection, fakeBackend, settings } from '../../test/fake-api';
import { renderWithStore } from '../../test/render';
import { ConnectionCard } from './ConnectionCard';

afterEach(cleanup);

const PAGE = 'https://accounts.feishu.cn/open-apis/authen/v1/authorize?client_id=cli_x&state=s';
const feishu = (patch: Partial<ConnectionView> = {}) =>
  connection({
    platform: 'feishu',
    name: 'Wiki',
    mode: 'direct',
    config: { appId: 'cli_x' },
    secretFields: ['appSecret'],
    userAuth: 'none',
    ...patch,
  });

function FirstCard() {
  const view = useApp((state) => state.connections[0]);
  return view ? <ConnectionCard connection={view} /> : null;
}

const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));

describe('SignInPanel', () => {
  it('opens the page in a new tab, waits with Cancel, then shows the signed-in state', async () => {
    const opened: string[] = [];
    const backend = fakeBackend({
      'connections.authorize': () => ok({ authorizeUrl: PAGE, opened: false }),
      'connections.cancelAuthorize': () => ok(undefined),
    });
    const { store } = renderWithStore(
      <FirstCard />,
      backend,
      { connections: [feishu()] },
      { openWindow: (url) => void opened.push(url) },
    );
    expect(
      screen.getByText(
        'The app must list http://127.0.0.1:18765/callback under Security settings → Redirect URLs.',
      ),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with Feishu' }));
    await settle();
    expect([opened, screen.getByTestId('sign-in').textContent]).toEqual([
      [PAGE],
      'Waiting for you to approve in the browser…Open the sign-in page againCancel sign-in',
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Open the sign-in page again' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel sign-in' }));
    await settle();
    expect([opened.length, backend.calls.map((call) => call.channel)]).toEqual([
      2,
      ['connections.authorize', 'connections.cancelAuthorize'],
    ]);
    act(() => {
      applyEvent(store, 'connections.changed', [
        feishu({ userAuth: 'authorized', secretFields: ['appSecret', 'userRefreshToken'] }),
      ]);
      applyEvent(store, 'auth.finished', { connectionId: 'c1', ok: true, error: null });
    });
    expect([screen.getByRole('status').textContent, screen.getByTestId('sign-in').textContent]).toEqual([
      'Signed in: search and My Library are on.',
      'Signed in: search and My Library are on.Sign in againSign out',
    ]);
  });

  it('signs out from a signed-in or expired card; the card then offers Sign in', async () => {
    const signedOut = feishu({ userAuth: 'none', secretFields: ['appSecret'] });
    const backend = fakeBackend({ 'connections.signOut': () => ok(signedOut) });
    const { store } = renderWithStore(
      <FirstCard />,
      backend,
      { connections: [feishu({ userAuth: 'authorized', secretFields: ['appSecret', 'userRefreshToken'] })] },
      { openWindow: () => {} },
    );
    act(() => applyEvent(store, 'auth.finished', { connectionId: 'c1', ok: true, error: null }));
    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await settle();
    act(() => applyEvent(store, 'connections.changed', [signedOut]));
    expect([
      backend.calls.map((call) => [call.channel, call.input]),
      store.getState().signIn['c1'],
      !!screen.queryByRole('button', { name: 'Sign in with Feishu' }),
      !!screen.queryByRole('button', { name: 'Sign out' }),
    ]).toEqual([[['connections.signOut', { id: 'c1' }]], undefined, true, false]);
    cleanup();
    const expired = fakeBackend({
      'connections.signOut': () => ({ ok: false, error: { code: 'ALREADY_SYNCING', message: 'busy' } }),
    });
    const second = renderWithStore(
      <FirstCard />,
      expired,
      {
        connections: [feishu({ userAuth: 'expired', secretFields: ['appSecret', 'userRefreshToken'] })],
        settings: settings({ language: 'zh' }),
      },
      { openWindow: () => {} },
    );
    expect(screen.getByRole('button', { name: '登录飞书' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '退出登录' }));
    await settle();
    expect(second.store.getState().notice).toMatchObject({ kind: 'error', text: 'busy' });
  });

  it('leaves opening to the shell when it opened the page, and never opens a non-web address', async () => {
    const opened: string[] = [];
    let answer = { authorizeUrl: PAGE, opened: true };
    const backend = fakeBackend({
      'connections.authorize': () => ok(answer),
      'app.openExternal': () => ok(undefined),
    });
    renderWithStore(
      <FirstCard />,
      backend,
      { connections: [feishu({ platform: 'lark', userAuth: 'expired' })] },
      { openWindow: (url) => void opened.push(url) },
    );
    expect(screen.getByRole('alert').textContent).toBe(
      'Your sign-in has expired or was revoked. Sign in again for search and My Library.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with Lark' }));
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Open the sign-in page again' }));
    await settle();
    expect([opened, backend.calls.map((call) => call.channel)]).toEqual([
      [],
      ['connections.authorize', 'app.openExternal'],
    ]);
    answer = { authorizeUrl: 'javascript:alert(1)', opened: false };
    fireEvent.click(screen.getByRole('button', { name: 'Open the sign-in page again' }));
    await settle();
    expect(opened).toEqual([]);
  });

  it('shows a failed sign-in, and a cancelled one as nothing at all', async () => {
    const backend = fakeBackend({ 'connections.authorize': () => ok({ authorizeUrl: PAGE, opened: true }) });
    const { store } = renderWithStore(
      <FirstCard />,
      backend,
      { connections: [feishu()] },
      { openWindow: () => {} },
    );
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with Feishu' }));
    await settle();
    act(() =>
      applyEvent(store, 'auth.finished', {
        connectionId: 'c1',
        ok: false,
        error: { code: 'CANCELLED', message: 'Sign-in cancelled.' },
      }),
    );
    expect([
      screen.queryAllByRole('alert').length,
      !!screen.queryByRole('button', { name: 'Sign in with Feishu' }),
    ]).toEqual([0, true]);
    act(() =>
      applyEvent(store, 'auth.finished', {
        connectionId: 'c1',
        ok: false,
        error: { code: 'PERMISSION_DENIED', message: 'You declined the sign-in in the browser.' },
      }),
    );
    expect(screen.getByRole('alert').textContent).toBe(
      'Sign-in failed: You declined the sign-in in the browser.',
    );
  });

  it('speaks Chinese: 登录飞书 / 登录 Lark', () => {
    renderWithStore(<FirstCard />, fakeBackend({}), {
      connections: [feishu()],
      settings: settings({ language: 'zh' }),
    });
    expect(screen.getByRole('button', { name: '登录飞书' })).toBeTruthy();
    cleanup();
    renderWithStore(<FirstCard />, fakeBackend({}), {
      connections: [feishu({ platform: 'lark' })],
      settings: settings({ language: 'zh' }),
    });
    expect(
      screen.getByText('应用需在“安全设置 → 重定向 URL”中添加 http://127.0.0.1:18765/callback。'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: '登录 Lark' })).toBeTruthy();
  });

  it('says once, next to the button, what an unsigned card cannot do (no separate limitation note)', () => {
    const unsigned = feishu({
      limitation:
        'Feishu search and My Library need you to sign in with Feishu; listing and reading work with the app credentials.',
      limitationCode: 'feishu.no-user-auth',
    });
    const said = (language: 'en' | 'zh', sentence: string) => {
      cleanup();
      renderWithStore(<FirstCard />, fakeBackend({}), {
        connections: [unsigned],
        settings: settings({ language }),
      });
      const card = screen.getByRole('article');
      return [
        screen.queryAllByRole('note').length,
        card.textContent!.split(sentence).length - 1,
        screen.getByTestId('sign-in').textContent!.includes(sentence),
      ];
    };
    expect([
      said('en', 'Feishu search and My Library need you to sign in with Feishu'),
      said('zh', '飞书的搜索和“我的文档库”需要先登录飞书'),
    ]).toEqual([
      [0, 1, true],
      [0, 1, true],
    ]);
  });

  it('is not shown for platforms without a user sign-in', () => {
    renderWithStore(<FirstCard />, fakeBackend({}), { connections: [connection()] });
    expect(screen.queryByTestId('sign-in')).toBeNull();
  });
});
