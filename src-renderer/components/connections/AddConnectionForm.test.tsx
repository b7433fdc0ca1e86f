// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fail, ok } from '../../../src-shared/errors';
import { fakeBackend } from '../../test/fake-api';
import { renderWithStore } from '../../test/render';
import { AddConnectionForm } from './AddConnectionForm';

afterEach(cleanup);

describe('AddConnectionForm', () => {
  it('asks for the platform’s own fields, keeps secrets masked, and tests before saving', async () => {
    const backend = fakeBackend({ 'connections.testNew': () => fail('AUTH_INVALID', 'The platform rejected these credentials.') });
    renderWithStore(<AddConnectionForm initialPlatform="folder" onClose={() => {}} />, backend);
    fireEvent.click(screen.getByRole('radio', { name: 'Yuque' }));
    const token = screen.getByLabelText(/Personal or team token/);
    expect(token.getAttribute('type')).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Personal or team token: Required');
    expect(backend.calls).toEqual([]);
    fireEvent.change(token, { target: { value: 'secret-token-123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect((await screen.findByRole('status')).textContent).toBe('✗ The platform rejected these credentials.');
    expect(backend.calls).toEqual([{ channel: 'connections.testNew', input: { platform: 'yuque', name: 'Yuque', mode: 'rag', config: {}, secrets: { token: 'secret-token-123' } } }]);
  });

  it('adds a folder named after its path and closes', async () => {
    let closed = false;
    const backend = fakeBackend({ 'connections.add': (input: { name: string }) => ok({ id: 'c9', name: input.name }) });
    renderWithStore(<AddConnectionForm initialPlatform="folder" onClose={() => (closed = true)} />, backend);
    fireEvent.change(screen.getByLabelText(/Folder path/), { target: { value: '/home/me/笔记/' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Enable RAG indexing' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add connection' }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect({ closed, input: backend.calls[0]?.input }).toEqual({ closed: true, input: { platform: 'folder', name: '笔记', mode: 'direct', config: { path: '/home/me/笔记/' }, secrets: {} } });
  });

  it('offers DingTalk’s Stream option as a checkbox and sends it as a boolean', async () => {
    const backend = fakeBackend({ 'connections.add': (input: { name: string }) => ok({ id: 'c9', name: input.name }) });
    renderWithStore(<AddConnectionForm initialPlatform="dingtalk" onClose={() => {}} />, backend);
    fireEvent.change(screen.getByLabelText(/App key/), { target: { value: 'dingkey' } });
    fireEvent.change(screen.getByLabelText(/App secret/), { target: { value: 'ding-secret-1' } });
    fireEvent.change(screen.getByLabelText(/unionId/), { target: { value: 'union-1' } });
    const stream = screen.getByRole('checkbox', { name: /Receive full text over DingTalk Stream/ });
    expect((stream as HTMLInputElement).checked).toBe(false);
    fireEvent.click(stream);
    fireEvent.click(screen.getByRole('button', { name: 'Add connection' }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(backend.calls[0]?.input).toEqual({ platform: 'dingtalk', name: 'DingTalk', mode: 'rag', config: { appKey: 'dingkey', operatorId: 'union-1', streamEvents: true }, secrets: { appSecret: 'ding-secret-1' } });
  });
});
