import { describe, expect, it } from 'vitest';
import { ok } from '@shared/errors';
import type { ChatAnswer, SyncRunView } from '@shared/models';
import { connection, fakeBackend } from '../test/fake-api';
import { createAppStore } from './app-store';
import { applyEvent } from './apply-event';

function answer(messageId: string, text: string): ChatAnswer {
  return {
    conversationId: 'conv',
    messageId,
    text,
    citations: [],
    sources: [],
    droppedMarkers: [],
    mode: 'model',
    incomplete: false,
    error: null,
    usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 },
  };
}

describe('chat streaming through the event reducer', () => {
  it('keeps tokens that arrive before chat.ask returns, then streams and finishes the exchange', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const backend = fakeBackend({
      'chat.ask': async () => {
        await gate;
        return ok({ conversationId: 'conv', messageId: 'm1' });
      },
    });
    const { store } = createAppStore(backend.api);
    const asking = store.getState().ask('什么是报销流程？');
    applyEvent(store, 'chat.token', { conversationId: 'conv', messageId: 'm1', delta: '报销', offset: 0 });
    release();
    await asking;
    applyEvent(store, 'chat.token', {
      conversationId: 'conv',
      messageId: 'm1',
      delta: '需要发票 [1]',
      offset: 2,
    });
    const streamed = store.getState().exchanges[0];
    applyEvent(store, 'chat.done', answer('m1', '报销需要发票。'));
    expect({
      streamed: streamed?.text,
      status: streamed?.status,
      final: store.getState().exchanges[0]?.text,
      done: store.getState().exchanges[0]?.status,
      conversation: store.getState().conversationId,
      early: store.getState().earlyTokens,
    }).toEqual({
      streamed: '报销需要发票 [1]',
      status: 'streaming',
      final: '报销需要发票。',
      done: 'done',
      conversation: 'conv',
      early: {},
    });
  });

  it('marks a refused question as failed with the reason', async () => {
    const backend = fakeBackend({});
    const { store } = createAppStore(backend.api);
    await store.getState().ask('hello');
    expect(store.getState().exchanges[0]).toMatchObject({
      status: 'failed',
      error: { code: 'UNSUPPORTED', message: 'no fake for chat.ask' },
    });
  });
});

describe('type-ahead search', () => {
  it('debounces keystrokes into one call and ignores a slower, older answer', async () => {
    const answers: Record<string, number> = { 报: 30, 报销: 0 };
    const backend = fakeBackend({
      'search.query': async (input: { query: string }) => {
        await new Promise((resolve) => setTimeout(resolve, answers[input.query] ?? 0));
        return ok({
          hits: [],
          documents: [{ best: { key: input.query }, more: [] } as never],
          warnings: [],
          tookMs: 1,
        });
      },
    });
    const { store, dispose } = createAppStore(backend.api, { searchDebounceMs: 5 });
    store.getState().setQuery('b');
    store.getState().setQuery('报');
    await new Promise((resolve) => setTimeout(resolve, 10));
    store.getState().setQuery('报销');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect({
      calls: backend.calls.map((call) => (call.input as { query: string }).query),
      answered: store.getState().answeredQuery,
      hits: store.getState().documents.map((document) => document.best.key),
    }).toEqual({ calls: ['报', '报销'], answered: '报销', hits: ['报销'] });
    dispose();
  });
});

describe('warnings clear when their cause clears', () => {
  function run(connectionId: string, status: SyncRunView['status']): SyncRunView {
    return {
      id: 1,
      connectionId,
      status,
      startedAt: '2025-05-01T08:00:00.000Z',
      finishedAt: '2025-05-01T08:01:00.000Z',
      counters: {
        seen: 1,
        added: 1,
        updated: 0,
        unchanged: 0,
        deleted: 0,
        failed: 0,
        deferred: 0,
        skipped: 0,
        chunksWritten: 1,
      },
      errors: [],
      notes: [],
      skippedKinds: {},
      error: status === 'failed' ? { code: 'AUTH_INVALID', message: 'The token was rejected.' } : null,
    };
  }

  it('a failed sync’s warning goes when a later sync of that connection succeeds, not another’s', () => {
    const { store } = createAppStore(fakeBackend({}).api, { host: 'desktop' });
    store.setState({ connections: [connection({ id: 'a' }), connection({ id: 'b' })] });
    store.getState().showError({ code: 'AUTH_INVALID', message: 'The token was rejected.' }, 'a');
    applyEvent(store, 'sync.finished', run('b', 'succeeded'));
    applyEvent(store, 'sync.finished', run('a', 'failed'));
    expect(store.getState().notice?.cause).toBe('a');
    applyEvent(store, 'sync.finished', run('a', 'succeeded'));
    expect(store.getState().notice).toBeNull();
  });

  it('goes with its connection, and when its credentials are saved', async () => {
    const backend = fakeBackend({ 'connections.update': () => ok(connection({ id: 'a' })) });
    const { store } = createAppStore(backend.api, { host: 'desktop' });
    store.setState({ connections: [connection({ id: 'a' }), connection({ id: 'b' })] });
    store.getState().showError({ code: 'AUTH_INVALID', message: 'The token was rejected.' }, 'a');
    applyEvent(store, 'connections.changed', [connection({ id: 'a' })]);
    expect(store.getState().notice?.cause).toBe('a');
    await store.getState().updateConnection({ id: 'a', secrets: { token: 'new' } });
    expect(store.getState().notice).toBeNull();
    store.getState().showError({ code: 'AUTH_INVALID', message: 'The token was rejected.' }, 'b');
    applyEvent(store, 'connections.changed', [connection({ id: 'a' })]);
    expect(store.getState().notice).toBeNull();
    // A warning about nothing in particular stays until dismissed.
    store.getState().showError({ code: 'INTERNAL', message: 'Something broke.' });
    applyEvent(store, 'connections.changed', []);
    expect(store.getState().notice?.kind).toBe('error');
  });
});
