// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fail, ok } from '@shared/errors';

/** A Test that passes (Add and Save test first). */
const passes = () => ok({ message: 'Connected.', code: 'connection.ok', params: {} });
import { connection, fakeBackend, settings, userCalls } from '../../test/fake-api';
import { renderWithStore } from '../../test/render';
import { useApp } from '../../store/store-context';
import { ConnectionCard } from './ConnectionCard';
import { AddConnectionForm } from './ConnectionForm';

/** The card as ConnectionsView renders it: from the store, so a saved edit re-renders it. */
function FirstCard() {
  const view = useApp((state) => state.connections[0]);
  return view ? <ConnectionCard connection={view} /> : null;
}

afterEach(cleanup);

describe('AddConnectionForm', () => {
  it('asks for the platform’s own fields, keeps secrets masked, and tests before saving', async () => {
    const backend = fakeBackend({
      'connections.testNew': () => fail('AUTH_INVALID', 'The platform rejected these credentials.'),
    });
    renderWithStore(<AddConnectionForm initialPlatform="folder" onClose={() => {}} />, backend);
    fireEvent.click(screen.getByRole('radio', { name: 'Yuque' }));
    const token = screen.getByLabelText(/Personal or team token/);
    expect(token.getAttribute('type')).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Personal or team token: Required');
    expect(backend.calls).toEqual([]);
    fireEvent.change(token, { target: { value: 'secret-token-123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      '✗ The platform rejected these credentials.',
    );
    expect(backend.calls).toEqual([
      {
        channel: 'connections.testNew',
        input: {
          platform: 'yuque',
          name: 'Yuque',
          mode: 'rag',
          config: {},
          secrets: { token: 'secret-token-123' },
        },
      },
    ]);
  });

  it('says a refused test in Chinese, with core’s English sentence beneath it', async () => {
    const detail = 'Yuque rejected the token (wrong, revoked or expired; HTTP 401).';
    renderWithStore(
      <AddConnectionForm initialPlatform="yuque" onClose={() => {}} />,
      fakeBackend({ 'connections.testNew': () => fail('AUTH_INVALID', detail) }),
      { settings: settings({ language: 'zh' }) },
    );
    fireEvent.change(screen.getByLabelText(/个人或团队 Token/), { target: { value: 'secret-token-123' } });
    fireEvent.click(screen.getByRole('button', { name: '测试连接' }));
    const status = await screen.findByRole('status');
    expect({
      headline: status.querySelector('.error-headline')?.textContent,
      detail: status.querySelector('.error-detail')?.textContent,
      text: status.textContent,
    }).toEqual({ headline: '平台拒绝了凭证', detail, text: `✗ 平台拒绝了凭证${detail}` });
  });

  it('shows a refused save in Chinese too', async () => {
    const backend = fakeBackend({
      'connections.testNew': passes,
      'connections.add': () => fail('ALREADY_EXISTS', 'A connection named "笔记" already exists.'),
    });
    renderWithStore(<AddConnectionForm initialPlatform="folder" onClose={() => {}} />, backend, {
      settings: settings({ language: 'zh' }),
    });
    fireEvent.change(screen.getByLabelText(/文件夹路径/), { target: { value: '/home/me/笔记' } });
    fireEvent.click(screen.getByRole('button', { name: '添加连接' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      '该名称已被使用A connection named "笔记" already exists.',
    );
  });

  it('adds a folder named after its path and closes', async () => {
    let closed = false;
    const backend = fakeBackend({
      'connections.testNew': passes,
      'connections.add': (input: { name: string }) => ok({ id: 'c9', name: input.name }),
    });
    renderWithStore(<AddConnectionForm initialPlatform="folder" onClose={() => (closed = true)} />, backend);
    fireEvent.change(screen.getByLabelText(/Folder path/), { target: { value: '/home/me/笔记/' } });
    // A folder's copy is all there is: no switch to search it "live".
    expect(screen.queryByRole('checkbox', { name: 'Keep a local copy for offline search' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Add connection' }));
    await waitFor(() => expect(closed).toBe(true));
    expect({
      closed,
      input: backend.calls.find((call) => call.channel === 'connections.add')?.input,
    }).toEqual({
      closed: true,
      input: {
        platform: 'folder',
        name: '笔记',
        mode: 'rag',
        config: { path: '/home/me/笔记/', noWatch: false },
        secrets: {},
      },
    });
  });

  it('offers DingTalk’s userId and Stream option, and sends Stream as a boolean', async () => {
    const backend = fakeBackend({
      'connections.testNew': passes,
      'connections.add': (input: { name: string }) => ok({ id: 'c9', name: input.name }),
    });
    renderWithStore(<AddConnectionForm initialPlatform="dingtalk" onClose={() => {}} />, backend);
    fireEvent.change(screen.getByLabelText(/App key/), { target: { value: 'dingkey' } });
    fireEvent.change(screen.getByLabelText(/App secret/), { target: { value: 'ding-secret-1' } });
    fireEvent.change(screen.getByLabelText(/Your userId/), { target: { value: 'user-1' } });
    const stream = screen.getByRole('checkbox', { name: /Receive full text over DingTalk Stream/ });
    expect((stream as HTMLInputElement).checked).toBe(false);
    fireEvent.click(stream);
    fireEvent.click(screen.getByRole('button', { name: 'Add connection' }));
    await waitFor(() => expect(backend.calls.map((call) => call.channel)).toContain('connections.add'));
    expect(backend.calls.find((call) => call.channel === 'connections.add')?.input).toEqual({
      platform: 'dingtalk',
      name: 'DingTalk',
      mode: 'rag',
      config: { appKey: 'dingkey', userId: 'user-1', streamEvents: true, international: false },
      secrets: { appSecret: 'ding-secret-1' },
    });
  });

  it('tests before adding: a failed Test stops Add until "Add anyway"; changing a field tests again', async () => {
    let found = false;
    const backend = fakeBackend({
      'connections.testNew': () =>
        found ? passes() : fail('NOT_FOUND', 'The folder /home/me/missing does not exist.'),
      'connections.add': (input: { name: string }) => ok({ id: 'c9', name: input.name }),
    });
    // The folder preview under the path asks on its own; what matters here is Test and Add.
    const calls = () =>
      backend.calls.map((call) => call.channel).filter((channel) => channel !== 'connections.previewFolder');
    let closed = 0;
    renderWithStore(<AddConnectionForm initialPlatform="folder" onClose={() => closed++} />, backend);
    const path = screen.getByLabelText(/Folder path/);
    fireEvent.change(path, { target: { value: '/home/me/missing' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add connection' }));
    await screen.findByRole('button', { name: 'Add anyway' });
    const afterFailure = {
      channels: calls(),
      status: screen.getByRole('status').textContent,
    };
    fireEvent.change(path, { target: { value: '/home/me/notes' } });
    const relabelled = screen.getByRole('button', { name: 'Add connection' }).textContent;
    found = true;
    fireEvent.click(screen.getByRole('button', { name: 'Add connection' }));
    await waitFor(() => expect(closed).toBe(1));
    expect({ afterFailure, relabelled, channels: calls() }).toEqual({
      afterFailure: {
        channels: ['connections.testNew'],
        status: '✗ The folder /home/me/missing does not exist.',
      },
      relabelled: 'Add connection',
      channels: ['connections.testNew', 'connections.testNew', 'connections.add'],
    });
  });

  it('adds anyway when asked to after a failed Test', async () => {
    const backend = fakeBackend({
      'connections.testNew': () => fail('SOURCE_UNREACHABLE', 'Cannot reach Yuque at 127.0.0.1:9.'),
      'connections.add': (input: { name: string }) => ok({ id: 'c9', name: input.name }),
    });
    renderWithStore(<AddConnectionForm initialPlatform="yuque" onClose={() => {}} />, backend);
    fireEvent.change(screen.getByLabelText(/Personal or team token/), { target: { value: 'token-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add connection' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Add anyway' }));
    await waitFor(() =>
      expect(backend.calls.map((call) => call.channel)).toEqual(['connections.testNew', 'connections.add']),
    );
  });

  it('asks for DingTalk’s userId or unionId before sending anything', async () => {
    const backend = fakeBackend({});
    renderWithStore(<AddConnectionForm initialPlatform="dingtalk" onClose={() => {}} />, backend);
    fireEvent.change(screen.getByLabelText(/App key/), { target: { value: 'dingkey' } });
    fireEvent.change(screen.getByLabelText(/App secret/), { target: { value: 'ding-secret-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add connection' }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(backend.calls).toEqual([]);
    expect(
      screen.getByText('Give one of: Your userId (admin console → Contacts) / Or your unionId (operatorId)'),
    ).toBeTruthy();
  });
});

describe('Sign-in scopes (Feishu/Lark)', () => {
  it('sit under Advanced with the default list as hint, in English and Chinese; an edit with scopes set opens it', () => {
    renderWithStore(<AddConnectionForm initialPlatform="feishu" onClose={() => {}} />, fakeBackend({}), {
      settings: settings({ language: 'zh' }),
    });
    const advanced = screen.getByText('高级设置').closest('details')!;
    const scopes = within(advanced).getByLabelText(/登录授权范围/) as HTMLInputElement;
    expect([
      advanced.open,
      scopes.placeholder,
      within(advanced).getByText(/^以空格分隔/).textContent,
    ]).toEqual([
      false,
      'offline_access search:docs:read wiki:wiki:readonly docs:document.content:read docx:document:readonly sheets:spreadsheet:read bitable:app:readonly',
      '以空格分隔，填写后替换默认列表：offline_access search:docs:read wiki:wiki:readonly docs:document.content:read docx:document:readonly sheets:spreadsheet:read bitable:app:readonly。offline_access 始终会加上。每项权限都须在开发者后台为应用开通，否则登录页会显示错误 20027。',
    ]);
    cleanup();
    const scoped = connection({
      id: 'f1',
      platform: 'feishu',
      name: 'Wiki',
      mode: 'direct',
      config: { appId: 'cli_x', oauthScopes: 'wiki:wiki:readonly' },
      secretFields: ['appSecret'],
    });
    renderWithStore(<ConnectionCard connection={scoped} />, fakeBackend({}), { connections: [scoped] });
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    const details = screen.getByText('Advanced').closest('details')!;
    expect([
      details.open,
      (within(details).getByLabelText(/Sign-in scopes/) as HTMLInputElement).value,
    ]).toEqual([true, 'wiki:wiki:readonly']);
  });
});

describe('EditConnectionForm', () => {
  const wiki = connection({
    id: 'y1',
    platform: 'yuque',
    name: 'Team wiki',
    config: { baseUrl: 'http://127.0.0.1:9/api/v2' },
    secretFields: ['token'],
    syncStatus: 'failed',
    syncError: 'Yuque rejected the token.',
  });

  it('opens from the card prefilled, says the stored token is kept, and tests the edit without a secret', async () => {
    const backend = fakeBackend({
      'connections.testUpdate': () => ok({ message: 'Connected to Yuque as Ada.' }),
    });
    renderWithStore(<ConnectionCard connection={wiki} />, backend, { connections: [wiki] });
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('form', { name: 'Edit “Team wiki”' });
    const token = within(form).getByLabelText(/Personal or team token/) as HTMLInputElement;
    const shown = {
      name: (within(form).getByLabelText('Name') as HTMLInputElement).value,
      baseUrl: (within(form).getByLabelText(/API base URL/) as HTMLInputElement).value,
      token: [token.type, token.value, token.placeholder],
      platformPicker: within(form).queryAllByRole('radio').length,
      ragSwitch: within(form).queryAllByRole('checkbox').length,
    };
    fireEvent.change(within(form).getByLabelText(/API base URL/), {
      target: { value: 'http://127.0.0.1:10/api/v2' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Test connection' }));
    expect((await within(form).findByRole('status')).textContent).toBe('✓ Connected to Yuque as Ada.');
    expect({ shown, calls: userCalls(backend) }).toEqual({
      shown: {
        name: 'Team wiki',
        baseUrl: 'http://127.0.0.1:9/api/v2',
        token: ['password', '', 'Stored — leave empty to keep'],
        platformPicker: 0,
        ragSwitch: 0,
      },
      calls: [
        {
          channel: 'connections.testUpdate',
          input: {
            id: 'y1',
            name: 'Team wiki',
            config: { baseUrl: 'http://127.0.0.1:10/api/v2' },
            secrets: {},
          },
        },
      ],
    });
  });

  it('saves a new token, updates the card, closes and syncs the failed connection; a refusal stays in the form', async () => {
    let refuse = true;
    const backend = fakeBackend({
      'connections.testUpdate': passes,
      'sync.start': () => ok(undefined),
      'connections.update': (input: { name: string }) =>
        refuse
          ? fail('ALREADY_SYNCING', '"Team wiki" is syncing: stop the sync, then save the changes.')
          : ok({ ...wiki, name: input.name }),
    });
    const { store } = renderWithStore(<FirstCard />, backend, { connections: [wiki] });
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: '团队知识库' } });
    fireEvent.change(screen.getByLabelText(/Personal or team token/), { target: { value: 'new-token-789' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    const refusal = (await screen.findByRole('alert')).textContent;
    refuse = false;
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByRole('article', { name: '团队知识库' });
    await waitFor(() => expect(userCalls(backend).at(-1)?.channel).toBe('sync.start'));
    expect({
      refusal,
      last: userCalls(backend).at(-2),
      sync: userCalls(backend).at(-1),
      names: store.getState().connections.map((c) => c.name),
      form: screen.queryByRole('form'),
    }).toEqual({
      refusal: '"Team wiki" is syncing: stop the sync, then save the changes.',
      last: {
        channel: 'connections.update',
        input: {
          id: 'y1',
          name: '团队知识库',
          config: { baseUrl: 'http://127.0.0.1:9/api/v2' },
          secrets: { token: 'new-token-789' },
        },
      },
      sync: { channel: 'sync.start', input: { connectionId: 'y1' } },
      names: ['团队知识库'],
      form: null,
    });
  });

  it('can remove a stored optional secret (not a required one)', async () => {
    const lark = connection({
      id: 'l1',
      platform: 'lark',
      name: 'Lark wiki',
      mode: 'direct',
      config: { appId: 'cli_x' },
      secretFields: ['appSecret', 'userRefreshToken'],
      userAuth: 'authorized',
    });
    const backend = fakeBackend({
      'connections.update': () => ok({ ...lark, secretFields: ['appSecret'], userAuth: 'none' }),
    });
    renderWithStore(<ConnectionCard connection={lark} />, backend, { connections: [lark] });
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    const removals = screen.getAllByRole('checkbox', { name: 'Remove the stored value' });
    fireEvent.click(removals[0]!);
    const token = screen.getByLabelText(/User refresh token/) as HTMLInputElement;
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(backend.calls.length).toBe(1));
    expect({
      removals: removals.length,
      token: [token.disabled, token.placeholder],
      input: backend.calls[0]?.input,
    }).toEqual({
      removals: 1,
      token: [true, 'Removed when you save'],
      input: {
        id: 'l1',
        name: 'Lark wiki',
        config: { appId: 'cli_x', baseUrl: '', redirectPort: '', oauthScopes: '' },
        secrets: {},
        clearSecrets: ['userRefreshToken'],
      },
    });
  });
});
