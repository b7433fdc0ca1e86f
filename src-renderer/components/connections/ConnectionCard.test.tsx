// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '@shared/errors';
import { connection, fakeBackend, settings, syncRun, userCalls } from '../../test/fake-api';
import { renderWithStore } from '../../test/render';
import { applyEvent } from '../../store/apply-event';
import { useApp } from '../../store/store-context';
import { ConnectionCard } from './ConnectionCard';

afterEach(cleanup);

/** The card as ConnectionsView renders it: from the store, so store changes re-render it. */
function FirstCard() {
  const view = useApp((state) => state.connections[0]);
  return view ? <ConnectionCard connection={view} /> : null;
}

describe('ConnectionCard', () => {
  it('shows live progress with phase and counts while syncing', () => {
    const view = connection({ syncStatus: 'syncing', documentCount: 3 });
    renderWithStore(<ConnectionCard connection={view} />, fakeBackend({}), {
      connections: [view],
      syncing: {
        c1: {
          connectionId: 'c1',
          runId: 1,
          phase: 'embedding',
          documentsDone: 42,
          documentsTotal: 310,
          chunksWritten: 80,
          errors: 0,
        },
      },
    });
    const bar = screen.getByRole('progressbar');
    expect({
      now: bar.getAttribute('aria-valuenow'),
      max: bar.getAttribute('aria-valuemax'),
      label: bar.getAttribute('aria-label'),
      status: screen.getByTestId('sync-status').textContent,
      stop: !!screen.queryByRole('button', { name: 'Stop' }),
    }).toEqual({ now: '42', max: '310', label: 'Embedding 42/310', status: 'Syncing', stop: true });
  });

  it('counts documents and chunks live during a first sync instead of showing the stored 0', () => {
    const view = connection({ syncStatus: 'syncing', documentCount: 0 });
    const at = (phase: 'listing' | 'fetching', documentsDone: number, documentsTotal: number) => ({
      c1: {
        connectionId: 'c1',
        runId: 1,
        phase,
        documentsDone,
        documentsTotal,
        chunksWritten: documentsDone * 3,
        errors: 0,
      },
    });
    const { store } = renderWithStore(<FirstCard />, fakeBackend({}), {
      connections: [view],
      syncing: at('listing', 0, 0),
    });
    const beforeTotal = screen.getByTestId('document-count').textContent;
    act(() => store.setState({ progress: at('fetching', 1200, 3450) }));
    const during = `${screen.getByTestId('document-count').textContent} ${screen.getByTestId('chunk-count').textContent}`;
    act(() =>
      store.setState({
        progress: {},
        connections: [{ ...view, syncStatus: 'synced', documentCount: 3450, chunkCount: 10_400 }],
      }),
    );
    expect({
      beforeTotal,
      during,
      after: `${screen.getByTestId('document-count').textContent} ${screen.getByTestId('chunk-count').textContent}`,
    }).toEqual({ beforeTotal: '—', during: '1,200/3,450 3,600', after: '3,450 10,400' });
  });

  it("shows a platform limitation as a calm note, not an alert; an unknown code falls back to core's English", () => {
    const view = connection({
      platform: 'dingtalk',
      name: 'Docs',
      mode: 'direct',
      limitation: 'full text unavailable: direct search only.',
      limitationCode: 'dingtalk.some-future-code',
    });
    renderWithStore(<ConnectionCard connection={view} />, fakeBackend({}), { connections: [view] });
    expect({
      note: screen.getByRole('note').textContent,
      alerts: screen.queryAllByRole('alert').length,
    }).toEqual({ note: 'Good to knowFull text unavailable: direct search only.', alerts: 0 });
  });

  it('shows known limitations in the UI language, naming the platform in it', () => {
    const views = [
      connection({
        id: 'd',
        platform: 'dingtalk',
        name: 'Docs',
        mode: 'direct',
        limitation: 'full text comes from the blocks API. (English from core)',
        limitationCode: 'dingtalk.blocks',
      }),
      connection({
        id: 'f',
        platform: 'feishu',
        name: 'Wiki',
        limitation: 'Feishu search and My Library need user authorisation.',
        limitationCode: 'feishu.no-user-auth',
      }),
    ];
    const notes = (language: 'en' | 'zh') => {
      cleanup();
      renderWithStore(
        <>
          {views.map((view) => (
            <ConnectionCard key={view.id} connection={view} />
          ))}
        </>,
        fakeBackend({}),
        { connections: views, settings: settings({ language }) },
      );
      return screen.getAllByRole('note').map((note) => note.lastElementChild?.textContent);
    };
    expect({ zh: notes('zh'), en: notes('en') }).toEqual({
      zh: [
        '全文通过钉钉文档块接口获取，该接口只返回文档的一级块：嵌套在块内的文字可能缺失。仅索引在线文档（.adoc）；开启“通过钉钉 Stream 接收全文”后，可改用钉钉的 Markdown 导出补全。',
        '飞书的搜索和“我的文档库”需要先登录飞书；列出和读取文档只需应用凭证。',
      ],
      en: [
        'Full text comes from DingTalk’s document blocks API, which returns each document’s top-level blocks: text nested inside them may be missing. Only online documents (.adoc) are indexed; turn on “Receive full text over DingTalk Stream” to fall back to DingTalk’s Markdown export.',
        'Feishu search and My Library need you to sign in with Feishu; listing and reading work with the app credentials.',
      ],
    });
  });

  it('names a file left out on purpose once, under its reason, and a failed file once, as a failure', () => {
    const view = connection({ platform: 'folder', syncStatus: 'synced', lastSyncAt: '2026-01-01T00:00:00Z' });
    const binary = {
      externalId: 'scan.txt',
      title: 'scan.txt',
      code: 'DOCUMENT_FAILED',
      reason: 'folder.binary',
      skipped: true,
      message: 'Skipped binary content in scan.txt.',
    };
    const broken = {
      externalId: 'broken.docx',
      title: 'broken',
      code: 'DOCUMENT_FAILED',
      reason: 'folder.corrupt',
      message: 'broken.docx is not a readable Word document.',
    };
    const { store } = renderWithStore(<ConnectionCard connection={view} />, fakeBackend({}), {
      connections: [view],
    });
    act(() =>
      store.setState({
        lastRun: {
          c1: {
            id: 1,
            connectionId: 'c1',
            status: 'partial',
            startedAt: '2026-01-01T00:00:00Z',
            finishedAt: '2026-01-01T00:00:01Z',
            counters: {} as never,
            errors: [binary, broken],
            notes: [],
            skippedKinds: {},
            error: null,
          },
        },
      }),
    );
    const leftOut = screen.getByRole('list', { name: 'Left out of the index' });
    const failures = document.querySelector('.doc-errors')!;
    expect({
      leftOut: leftOut.textContent,
      failures: failures.querySelector('summary')?.textContent,
      failed: [...failures.querySelectorAll('li strong')].map((node) => node.textContent),
    }).toEqual({
      leftOut: 'Files with binary content: 1scan.txt Skipped binary content in scan.txt.',
      failures: '1 document could not be indexed',
      failed: ['broken'],
    });
  });

  it('shows the failure reason, and removes only after confirmation', async () => {
    const backend = fakeBackend({ 'connections.remove': () => ok(undefined) });
    const view = connection({ syncStatus: 'failed', syncError: 'Token expired.' });
    const { store } = renderWithStore(<ConnectionCard connection={view} />, backend, { connections: [view] });
    expect(screen.getByRole('alert').textContent).toBe('Token expired.');
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    expect(userCalls(backend)).toEqual([]);
    const dialog = screen.getByRole('alertdialog', { name: 'Remove “Notes” and its index?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, remove' }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect({ calls: userCalls(backend), left: store.getState().connections }).toEqual({
      calls: [{ channel: 'connections.remove', input: { id: 'c1' } }],
      left: [],
    });
  });

  it('says a sync failure in the UI language from its code, with core’s sentence beneath', () => {
    const detail = 'Yuque rejected the token (wrong, revoked or expired; HTTP 401).';
    const view = connection({
      platform: 'yuque',
      syncStatus: 'failed',
      syncError: detail,
      syncErrorCode: 'AUTH_INVALID',
    });
    renderWithStore(<ConnectionCard connection={view} />, fakeBackend({}), {
      connections: [view],
      settings: settings({ language: 'zh' }),
    });
    const alert = screen.getByRole('alert');
    expect({
      status: screen.getByTestId('sync-status').textContent,
      headline: alert.querySelector('.error-headline')?.textContent,
      detail: alert.querySelector('.error-detail')?.textContent,
    }).toEqual({ status: '同步失败', headline: '平台拒绝了凭证', detail });
  });

  it('shows a sync Cairn was stopped during (CANCELLED) as a note, never as a failure', () => {
    const view = connection({
      syncStatus: 'failed',
      syncError: 'Cairn stopped during this sync.',
      syncErrorCode: 'CANCELLED',
    });
    renderWithStore(<ConnectionCard connection={view} />, fakeBackend({}), {
      connections: [view],
      settings: settings({ language: 'zh' }),
    });
    expect({
      alerts: screen.queryAllByRole('alert').length,
      note: screen.getByRole('note').textContent,
    }).toEqual({ alerts: 0, note: '上次同步未完成。' });
  });

  it('lists each failed document with its own localised headline', async () => {
    const run = {
      id: 7,
      connectionId: 'c1',
      status: 'partial' as const,
      startedAt: '2025-01-01T00:00:00.000Z',
      finishedAt: '2025-01-01T00:01:00.000Z',
      counters: {
        seen: 2,
        added: 1,
        updated: 0,
        unchanged: 0,
        deleted: 0,
        failed: 1,
        deferred: 0,
        skipped: 0,
        chunksWritten: 1,
      },
      notes: [],
      skippedKinds: {},
      errors: [
        { externalId: 'd1', title: '周报', code: 'NOT_FOUND', message: 'Yuque could not find doc 42.' },
      ],
      error: null,
    };
    const view = connection({
      syncStatus: 'synced',
      syncError: '1 document failed (first: "周报": Yuque could not find doc 42.)',
      syncErrorCode: 'DOCUMENT_FAILED',
    });
    const backend = fakeBackend({ 'sync.runs': () => ok([run]) });
    renderWithStore(<FirstCard />, backend, { connections: [view], settings: settings({ language: 'zh' }) });
    const details = screen.getByText('文档未能索引').closest('details')!;
    details.open = true;
    fireEvent(details, new Event('toggle'));
    expect((await within(details).findByRole('listitem')).textContent).toBe(
      '周报 找不到相应内容Yuque could not find doc 42.',
    );
  });

  it('groups documents that failed the same way into one row with a count, naming the first three', async () => {
    const server = 'Yuque server error for GET /api/v2/repos/docs/{id} (gave up after 5 attempts)';
    const errors = [
      ...Array.from({ length: 213 }, (_, i) => ({
        externalId: `d${i}`,
        title: `Doc ${i}`,
        code: 'SOURCE_ERROR',
        message: server,
      })),
      { externalId: 'x', title: '周报', code: 'NOT_FOUND', message: 'Yuque could not find doc 42.' },
    ];
    const run = syncRun({
      status: 'partial',
      counters: { ...syncRun().counters, seen: 300, failed: 214 },
      errors,
    });
    const view = connection({
      syncStatus: 'synced',
      syncError: '214 documents failed',
      syncErrorCode: 'DOCUMENT_FAILED',
    });
    const backend = fakeBackend({ 'sync.runs': () => ok([run]) });
    renderWithStore(<FirstCard />, backend, { connections: [view] });
    const details = document.querySelector<HTMLDetailsElement>('details.doc-errors')!;
    details.open = true;
    fireEvent(details, new Event('toggle'));
    await within(details).findAllByRole('listitem');
    expect(
      within(details)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([`213 documents (Doc 0, Doc 1, Doc 2, …): ${server}`, '周报 Yuque could not find doc 42.']);
    // The summary counts every document; the list has a row per way they failed.
    expect(within(details).getByText('214 documents could not be indexed').tagName).toBe('SUMMARY');
  });

  it('asks before a platform connection drops its index, saying how many documents go; a folder has no switch', async () => {
    const backend = fakeBackend({
      'connections.setMode': (input: { id: string; mode: 'direct' }) =>
        ok(connection({ platform: 'yuque', mode: input.mode })),
    });
    const wiki = connection({ platform: 'yuque', name: 'Wiki', syncStatus: 'synced', documentCount: 1225 });
    const folder = connection({ id: 'f1', syncStatus: 'synced', documentCount: 6 });
    renderWithStore(
      <>
        <ConnectionCard connection={wiki} />
        <ConnectionCard connection={folder} />
      </>,
      backend,
      { connections: [wiki, folder] },
    );
    const card = screen.getByRole('article', { name: 'Wiki' });
    fireEvent.click(within(card).getByRole('checkbox', { name: 'Keep a local copy for offline search' }));
    const question = within(card).getByRole('alertdialog');
    const asked = { question: question.getAttribute('aria-label'), calls: userCalls(backend).length };
    fireEvent.click(within(question).getByRole('button', { name: 'Keep it' }));
    const keptChecked = (within(card).getByRole('checkbox') as HTMLInputElement).checked;
    fireEvent.click(within(card).getByRole('checkbox', { name: 'Keep a local copy for offline search' }));
    fireEvent.click(within(card).getByRole('button', { name: 'Yes, remove the copy' }));
    await waitFor(() => expect(userCalls(backend).length).toBe(1));
    expect({
      asked,
      keptChecked,
      calls: userCalls(backend),
      folderSwitches: within(screen.getByRole('article', { name: 'Notes' })).queryAllByRole('checkbox')
        .length,
    }).toEqual({
      asked: {
        question:
          'Stop keeping a local copy of “Wiki”? Its 1,225 indexed documents are removed from this computer, and searches go live to Yuque.',
        calls: 0,
      },
      keptChecked: true,
      calls: [{ channel: 'connections.setMode', input: { id: 'c1', mode: 'direct' } }],
      folderSwitches: 0,
    });
  });

  it('says calmly, in both languages, how many documents wait for the next sync and which kinds were skipped', () => {
    const view = connection({
      platform: 'yuque',
      syncStatus: 'synced',
      syncError: "Yuque's request limit was reached (…). 1,800 documents wait for the next sync.",
      syncErrorCode: 'RATE_LIMITED',
      deferred: 1800,
      skippedKinds: { board: 1, mindnote: 3, sheet: 12, adraw: 2 },
    });
    const notes = (language: 'en' | 'zh') => {
      cleanup();
      renderWithStore(<ConnectionCard connection={view} />, fakeBackend({}), {
        connections: [view],
        settings: settings({ language }),
      });
      return {
        deferred: screen.getByTestId('deferred-note').textContent,
        skipped: screen.getByTestId('skipped-note').textContent,
        alerts: screen.queryAllByRole('alert').length,
        errorSummary: document.querySelectorAll('.doc-errors').length,
      };
    };
    expect({ en: notes('en'), zh: notes('zh') }).toEqual({
      en: {
        deferred:
          '1,800 documents wait for the next sync: Yuque asked Cairn to stop for now (its request limit or quota). Nothing was lost.',
        skipped: 'Skipped, no text to read: 12 spreadsheets, 3 mind notes, 2 × adraw, 1 board.',
        alerts: 0,
        errorSummary: 0,
      },
      zh: {
        deferred: '1,800 篇文档等待下次同步：语雀要求暂时停止（已达请求上限或额度），内容不会丢失。',
        skipped: '已跳过（没有可读取的文字）：12 个电子表格、3 个思维笔记、2 个 adraw、1 个画板。',
        alerts: 0,
        errorSummary: 0,
      },
    });
  });

  it('explains a direct-only connection and offers no indexing switch to turn on', () => {
    const view = connection({ platform: 'dingtalk', mode: 'direct', directOnly: true });
    renderWithStore(<ConnectionCard connection={view} />, fakeBackend({}), { connections: [view] });
    expect({
      note: screen.getByTestId('direct-only-note').textContent,
      switchDisabled: (
        screen.getByRole('checkbox', { name: 'Keep a local copy for offline search' }) as HTMLInputElement
      ).disabled,
      syncButton: screen.queryAllByRole('button', { name: 'Sync now' }).length,
    }).toEqual({
      note: 'DingTalk gives no full text for this connection, so it is searched live (direct mode) and cannot be indexed.',
      switchDisabled: true,
      syncButton: 0,
    });
  });

  it('names, in both languages, a missing scope of a document, documents indexed in part, and an IMA client too old (#28)', async () => {
    const counters = {
      seen: 3,
      added: 2,
      updated: 0,
      unchanged: 0,
      deleted: 0,
      failed: 1,
      deferred: 0,
      skipped: 0,
      chunksWritten: 2,
    };
    const run = {
      id: 9,
      connectionId: 'c1',
      status: 'partial' as const,
      startedAt: '2025-01-01T00:00:00.000Z',
      finishedAt: '2025-01-01T00:01:00.000Z',
      counters,
      notes: [
        {
          externalId: 'b1',
          title: '任务表',
          status: 'partial' as const,
          code: 'feishu.bitable-no-rows',
          reason: '"Tasks" returned no rows.',
          params: { tables: 'Tasks' },
        },
        {
          externalId: 'b2',
          title: 'Orders',
          status: 'partial' as const,
          code: 'feishu.bitable-truncated',
          reason: 'Only the first 20,000 rows of "Orders" were indexed.',
          params: { tables: 'Orders', rows: '20,000' },
        },
      ],
      skippedKinds: {},
      errors: [
        {
          externalId: 's1',
          title: '预算表',
          code: 'PERMISSION_DENIED',
          message: 'Your Feishu sign-in does not include the scope sheets:spreadsheet:read for GET …',
          reason: 'feishu.missing-scope',
          params: { scopes: 'sheets:spreadsheet:read' },
        },
      ],
      error: null,
    };
    const view = connection({
      platform: 'feishu',
      syncStatus: 'synced',
      syncError: '1 document failed',
      syncErrorCode: 'DOCUMENT_FAILED',
    });
    const card = async (language: 'en' | 'zh') => {
      cleanup();
      const backend = fakeBackend({ 'sync.runs': () => ok([run]) });
      renderWithStore(<FirstCard />, backend, { connections: [view], settings: settings({ language }) });
      const notes = await screen.findAllByTestId('partial-note');
      const details = document.querySelector('details.doc-errors') as HTMLDetailsElement;
      details.open = true;
      fireEvent(details, new Event('toggle'));
      return {
        notes: notes.map((note) => note.textContent),
        error: (await within(details).findByRole('listitem')).textContent,
      };
    };
    expect(await card('en')).toEqual({
      notes: [
        'Returned no rows (check the bitable’s advanced permissions): “任务表”',
        'Only the first 20,000 rows of a table indexed: “Orders”',
      ],
      error: '预算表 Your Feishu sign-in does not include the scope sheets:spreadsheet:read for GET …',
    });
    expect(await card('zh')).toEqual({
      notes: ['未返回任何行（请检查多维表格的高级权限）：“任务表”', '数据表只索引了前 20,000 行：“Orders”'],
      error:
        '预算表 缺少飞书权限范围：sheets:spreadsheet:read（请在开发者后台开通并重新登录）Your Feishu sign-in does not include the scope sheets:spreadsheet:read for GET …',
    });

    // A failed sync whose run says why: the card's headline names it in Chinese.
    const ima = connection({
      platform: 'ima',
      syncStatus: 'failed',
      syncError: 'IMA says this client is too old for its OpenAPI (IMA code -200). … update Cairn.',
      syncErrorCode: 'UNSUPPORTED',
    });
    const failed = {
      ...run,
      status: 'failed' as const,
      notes: [],
      errors: [],
      error: {
        code: 'UNSUPPORTED' as const,
        message: ima.syncError!,
        details: { reason: 'ima.client-too-old', params: { version: '1.1.10' } },
      },
    };
    cleanup();
    renderWithStore(<FirstCard />, fakeBackend({ 'sync.runs': () => ok([failed]) }), {
      connections: [ima],
      settings: settings({ language: 'zh' }),
    });
    const alert = await screen.findByRole('alert');
    await within(alert).findByText('IMA 表示此版本的 Cairn 过旧，请更新 Cairn');
  });
});

describe('counts while a sync ends', () => {
  it('never drop to the old stored counts between the run’s end and the stored counts arriving', () => {
    const fresh = connection({ id: 'y1', platform: 'yuque', name: 'Wiki', syncStatus: 'idle' });
    const { store } = renderWithStore(<FirstCard />, fakeBackend({}), { connections: [fresh] });
    const progress = (phase: 'writing' | 'done', done: number) =>
      act(() =>
        applyEvent(store, 'sync.progress', {
          connectionId: 'y1',
          runId: 1,
          phase,
          documentsDone: done,
          documentsTotal: 1225,
          chunksWritten: 2 * done,
          errors: 0,
        }),
      );
    const tiles = () => [
      screen.getByTestId('document-count').textContent,
      screen.getByTestId('chunk-count').textContent,
    ];
    progress('writing', 1000);
    const writing = tiles();
    progress('done', 1225);
    const ended = tiles();
    act(() => applyEvent(store, 'sync.finished', syncRun({ connectionId: 'y1' })));
    const finished = tiles();
    act(() =>
      applyEvent(store, 'connections.changed', [
        { ...fresh, syncStatus: 'synced', documentCount: 1225, chunkCount: 2450 },
      ]),
    );
    expect({ writing, ended, finished, stored: tiles(), settled: store.getState().settledProgress }).toEqual({
      writing: ['1,000/1,225', '2,000'],
      ended: ['1,225', '2,450'],
      finished: ['1,225', '2,450'],
      stored: ['1,225', '2,450'],
      settled: {},
    });
  });
});
