// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '@shared/errors';
import { fakeBackend } from '../../test/fake-api';
import { renderWithStore } from '../../test/render';
import { DocumentPreview } from './DocumentPreview';

afterEach(cleanup);

const markdown = '# VPN 设置\n\n按照[官方指南](https://docs.example.com/vpn)安装客户端。';

function backend() {
  return fakeBackend({
    'app.openExternal': () => ok(undefined),
    'documents.get': () =>
      ok({
        id: 1,
        connectionId: 'c1',
        externalId: 'vpn.md',
        title: 'VPN 设置',
        platform: 'folder',
        knowledgeBase: 'notes',
        url: '/n/vpn.md',
        updatedAt: null,
        indexedAt: '2026-11-01T00:00:00.000Z',
        markdown,
        chunks: [{ id: 1, ord: 0, headingPath: 'VPN 设置', charStart: 0, charEnd: markdown.length }],
      }),
  });
}

async function clickLink(host: 'browser' | 'desktop') {
  const opened: string[] = [];
  const api = backend();
  const { store } = renderWithStore(
    <DocumentPreview />,
    api,
    {},
    {
      host,
      openWindow: (url) => void opened.push(url),
    },
  );
  await store.getState().openPreview({ documentId: 1, passage: null, terms: [], title: 'VPN 设置' });
  const dialog = await screen.findByRole('dialog', { name: 'VPN 设置' });
  fireEvent.click(await within(dialog).findByRole('button', { name: '官方指南' }));
  return { opened, api };
}

describe('links in the preview', () => {
  it('open in a new tab of this browser in the browser UI, not through the host machine', async () => {
    const { opened, api } = await clickLink('browser');
    expect(opened).toEqual(['https://docs.example.com/vpn']);
    expect(api.calls.filter((call) => call.channel === 'app.openExternal')).toEqual([]);
  });

  it('open through core (which checks the link) on the desktop', async () => {
    const { opened, api } = await clickLink('desktop');
    await waitFor(() =>
      expect(api.calls.filter((call) => call.channel === 'app.openExternal')).toEqual([
        { channel: 'app.openExternal', input: { url: 'https://docs.example.com/vpn' } },
      ]),
    );
    expect(opened).toEqual([]);
  });
});
