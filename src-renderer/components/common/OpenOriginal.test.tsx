// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fail, ok } from '@shared/errors';
import { connection, fakeBackend } from '../../test/fake-api';
import { renderWithStore } from '../../test/render';
import type { OriginalRef } from '../../store/slices/ui-slice';
import { LocationLabel, OpenOriginal } from './OpenOriginal';

afterEach(cleanup);

// A PDF passage on page 12 of a watched vault folder, and a note of that vault.
const pdf: OriginalRef = {
  url: 'file:///home/me/vault/budget.pdf',
  documentId: 7,
  title: 'Budget',
  passage: { charStart: 0, charEnd: 10 },
  terms: [],
  location: { kind: 'page', page: 12 },
  connectionId: 'c1',
  externalId: 'budget.pdf',
};
const note: OriginalRef = {
  ...pdf,
  url: 'file:///home/me/vault/plan.md',
  externalId: 'plan.md',
  location: null,
};

function renderOriginal(original: OriginalRef, host: 'desktop' | 'browser') {
  const backend = fakeBackend({
    'app.openExternal': () => ok({ url: original.url ?? '' }),
    'documents.get': () => fail('NOT_FOUND', 'not in this test'),
  });
  renderWithStore(
    <>
      <LocationLabel location={original.location} />
      <OpenOriginal original={original} />
    </>,
    backend,
    {
      connections: [
        connection({ id: 'c1', folder: { watching: true, watchError: null, obsidianVault: 'vault' } }),
      ],
    },
    { host },
  );
  return backend;
}

describe('OpenOriginal', () => {
  it('desktop: labels the page and opens the file at it', async () => {
    const backend = renderOriginal(pdf, 'desktop');
    expect(screen.getByText('p. 12')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Open original at p\. 12/ }));
    await waitFor(() =>
      expect(backend.calls.find((call) => call.channel === 'app.openExternal')?.input).toEqual({
        url: pdf.url,
        page: 12,
      }),
    );
  });

  it('browser host: the page label stays, and a local file opens in the preview, not on the host machine', async () => {
    const backend = renderOriginal(pdf, 'browser');
    expect(screen.getByText('p. 12')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /^Open original/ }));
    await waitFor(() =>
      expect(backend.calls.find((call) => call.channel === 'documents.get')?.input).toEqual({
        documentId: 7,
      }),
    );
    expect(backend.calls.some((call) => call.channel === 'app.openExternal')).toBe(false);
  });

  it('offers Open in Obsidian for a note of a connected vault, in both hosts', async () => {
    for (const host of ['desktop', 'browser'] as const) {
      const backend = renderOriginal(note, host);
      fireEvent.click(screen.getByRole('button', { name: /Open in Obsidian/ }));
      await waitFor(() =>
        expect(backend.calls.find((call) => call.channel === 'app.openExternal')?.input).toEqual({
          url: 'obsidian://open?vault=vault&file=plan',
        }),
      );
      cleanup();
    }
  });

  it('desktop: shows a local file in its folder; the browser host and web links offer no such thing', async () => {
    const backend = renderOriginal(note, 'desktop');
    fireEvent.click(screen.getByRole('button', { name: 'Show in folder' }));
    await waitFor(() =>
      expect(backend.calls.find((call) => call.channel === 'app.openExternal')?.input).toEqual({
        url: note.url,
        reveal: true,
      }),
    );
    cleanup();
    renderOriginal(note, 'browser');
    expect(screen.queryByRole('button', { name: 'Show in folder' })).toBeNull();
    cleanup();
    renderOriginal({ ...note, url: 'https://www.yuque.com/a/b' }, 'desktop');
    expect(screen.queryByRole('button', { name: 'Show in folder' })).toBeNull();
  });
});
