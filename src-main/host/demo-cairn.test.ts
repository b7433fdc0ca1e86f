import { describe, expect, it } from 'vitest';
import type { CairnEventName, CairnEvents } from '../../src-shared/contract';
import type { Result } from '../../src-shared/errors';
import { createDemoCairn } from './demo-cairn';

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

function nextEvent<N extends CairnEventName>(cairn: ReturnType<typeof createDemoCairn>, name: N, match: (payload: CairnEvents[N]) => boolean = () => true): Promise<CairnEvents[N]> {
  return new Promise((resolve) => {
    const off = cairn.events.on(name, (payload) => {
      if (!match(payload)) return;
      off();
      resolve(payload);
    });
  });
}

describe('demo backend', () => {
  it('syncs a folder with progress, records the unreadable file, and finds Chinese words', async () => {
    const cairn = createDemoCairn({ tickMs: 1 });
    const progress: number[] = [];
    cairn.events.on('sync.progress', (event) => progress.push(event.documentsDone));
    const folder = value(await cairn.api.connections.add({ platform: 'folder', name: 'Notes', mode: 'rag', config: { path: '/home/me/notes' }, secrets: {} }));
    const finished = nextEvent(cairn, 'sync.finished');
    value(await cairn.api.sync.start({ connectionId: folder.id }));
    expect(await cairn.api.sync.start({ connectionId: folder.id })).toMatchObject({ ok: false, error: { code: 'ALREADY_SYNCING' } });
    const run = await finished;
    expect({ status: run.status, failed: run.counters.failed, errors: run.errors.map((e) => e.externalId) }).toEqual({ status: 'partial', failed: 1, errors: ['scan-2024-03.pdf'] });
    expect(progress.at(-1)).toBe(9);
    expect(new Set(progress).size).toBeGreaterThan(5);
    const [view] = value(await cairn.api.connections.list());
    expect({ status: view!.syncStatus, documents: view!.documentCount, chunks: view!.chunkCount }).toEqual({ status: 'synced', documents: 8, chunks: 16 });
    const hits = value(await cairn.api.search.query({ query: '报销' })).hits;
    expect(hits[0]).toMatchObject({ title: '报销流程', knowledgeBase: 'notes', platform: 'folder', url: '/home/me/notes/expense-reimbursement.md', ranks: { keyword: 1 } });
    await cairn.dispose();
  });

  it('keeps the last good index when a later sync fails on expired credentials', async () => {
    const cairn = createDemoCairn({ tickMs: 1 });
    const yuque = value(await cairn.api.connections.add({ platform: 'yuque', name: 'Team', mode: 'rag', config: {}, secrets: { token: 'expired' } }));
    const failed = nextEvent(cairn, 'sync.finished');
    value(await cairn.api.sync.start({ connectionId: yuque.id }));
    expect((await failed).error?.code).toBe('AUTH_EXPIRED');
    const [view] = value(await cairn.api.connections.list());
    expect({ status: view!.syncStatus, error: view!.syncError }).toEqual({ status: 'failed', error: 'The access token has expired. Update the credentials and sync again.' });
    await cairn.dispose();
  });

  it('streams a cited extractive answer', async () => {
    const cairn = createDemoCairn({ tickMs: 1 });
    const folder = value(await cairn.api.connections.add({ platform: 'folder', name: 'Notes', mode: 'rag', config: { path: '/n' }, secrets: {} }));
    const synced = nextEvent(cairn, 'sync.finished');
    value(await cairn.api.sync.start({ connectionId: folder.id }));
    await synced;
    let streamed = '';
    cairn.events.on('chat.token', (token) => (streamed += token.delta));
    const done = nextEvent(cairn, 'chat.done');
    const { messageId } = value(await cairn.api.chat.ask({ question: 'How do I set up the VPN?' }));
    const answer = await done;
    expect({ id: answer.messageId, streamedAll: streamed === answer.text, firstCitation: answer.citations[0]?.title, marker: answer.text.includes('[1]') }).toEqual({ id: messageId, streamedAll: true, firstCitation: 'VPN setup', marker: true });
    await cairn.dispose();
  });
});
