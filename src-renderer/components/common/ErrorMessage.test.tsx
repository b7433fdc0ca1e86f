// @vitest-environment jsdom
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fail } from '@shared/errors';
import { fakeBackend, settings } from '../../test/fake-api';
import { renderWithStore } from '../../test/render';
import { ErrorMessage } from './ErrorMessage';
import { NoticeToast } from './NoticeToast';

afterEach(cleanup);

describe('ErrorMessage', () => {
  it('puts the lead before the headline with the UI language’s punctuation', () => {
    const error = {
      code: 'RATE_LIMITED',
      message: 'DingTalk has blocked this IP for a few minutes after too many calls; try again later.',
    };
    renderWithStore(
      <p role="alert">
        <ErrorMessage error={error} lead="登录失败" />
      </p>,
      fakeBackend({}),
      { settings: settings({ language: 'zh' }) },
    );
    expect(screen.getByRole('alert').textContent).toBe(`登录失败：请求过于频繁，请稍后再试${error.message}`);
  });

  it('renders nothing for a cancellation', () => {
    renderWithStore(
      <p role="alert">
        <ErrorMessage error={{ code: 'CANCELLED', message: 'Cancelled.' }} lead="No answer" />
      </p>,
      fakeBackend({}),
    );
    expect(screen.getByRole('alert').textContent).toBe('');
  });
});

describe('error notices', () => {
  it('a refused settings save shows its headline in Chinese; a cancellation shows no notice at all', async () => {
    const backend = fakeBackend({
      'settings.update': () =>
        fail('MODEL_NOT_FOUND', 'Model "qwen-max" was not found at http://127.0.0.1:9/v1 (404).'),
    });
    const { store } = renderWithStore(<NoticeToast />, backend, { settings: settings({ language: 'zh' }) });
    act(() => store.getState().showError({ code: 'CANCELLED', message: 'Embedding cancelled.' }));
    const afterCancel = store.getState().notice;
    await act(() => store.getState().saveSettings({ chat: { model: 'qwen-max' } }));
    const toast = screen.getByRole('alert');
    expect({
      afterCancel,
      headline: toast.querySelector('.error-headline')?.textContent,
      detail: toast.querySelector('.error-detail')?.textContent,
    }).toEqual({
      afterCancel: null,
      headline: '找不到该模型',
      detail: 'Model "qwen-max" was not found at http://127.0.0.1:9/v1 (404).',
    });
  });
});
