// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '@shared/errors';
import { App } from './App';
import { fakeBackend, settings } from './test/fake-api';
import { renderWithStore } from './test/render';

afterEach(cleanup);

describe('App', () => {
  it('leads a new user to add a local folder first', () => {
    renderWithStore(<App />, fakeBackend({}));
    fireEvent.click(screen.getByRole('button', { name: 'Add a local folder' }));
    expect(screen.getByRole('radio', { name: 'Local folder' })).toHaveProperty('checked', true);
  });

  it('focuses the search box on Ctrl+K and Cmd+K', () => {
    renderWithStore(<App />, fakeBackend({}));
    fireEvent.keyDown(window, { key: 'k', ctrlKey: true });
    expect(document.activeElement).toBe(screen.getByRole('searchbox'));
    (document.activeElement as HTMLElement).blur();
    fireEvent.keyDown(window, { key: 'K', metaKey: true });
    expect(document.activeElement).toBe(screen.getByRole('searchbox'));
  });

  it('follows the system language and switches when asked', async () => {
    const backend = fakeBackend({
      'settings.update': (patch: { language: 'en' }) => ok(settings({ language: patch.language })),
    });
    const { store } = renderWithStore(<App />, backend, { settings: settings({ language: 'system' }) });
    store.setState({ systemLanguage: 'zh' });
    expect(await screen.findByRole('button', { name: '连接' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'EN' }));
    expect(await screen.findByRole('button', { name: 'Connections' })).toBeTruthy();
    expect({ calls: backend.calls, lang: document.documentElement.lang }).toEqual({
      calls: [{ channel: 'settings.update', input: { language: 'en' } }],
      lang: 'en',
    });
  });
});
