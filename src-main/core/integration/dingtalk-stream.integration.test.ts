/**
 * DingTalk in RAG mode through the real composition root. Full text comes from the documented
 * blocks API, so a connection works without Stream; with Stream on, the registry's connector leases
 * the production Stream client, which opens the fake's gateway and WebSocket, and documents whose
 * blocks are refused come through the export event (EVENT frames, acked). Covers full text indexed
 * and searchable either way, a failed export recorded on its document only, a socket dropped
 * mid-sync, and no secret or ticket in the logs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionView } from '@shared/models';
import { createCairn, type CairnInternals } from '../app/create-cairn';
import { startDingTalkFake, type DingTalkFake } from '../../testing/fakes/dingtalk-fake';
import { createLogger, SecretRedactor } from '../logging/logger';
import { searchHits, syncToEnd, unwrap } from '../../testing/integration-kit';

let cairn: CairnInternals;
let fake: DingTalkFake;
let dropFake: DingTalkFake;
const logLines: string[] = [];

beforeAll(async () => {
  [fake, dropFake] = await Promise.all([
    startDingTalkFake({ documents: 12, spaces: 2 }),
    startDingTalkFake({ documents: 10, spaces: 1 }),
  ]);
  const redactor = new SecretRedactor();
  cairn = await createCairn({
    env: {},
    scheduler: false,
    redactor,
    logger: createLogger({ redactor, level: 'debug', sink: (line) => void logLines.push(line) }),
  });
});

afterAll(async () => {
  await cairn?.dispose();
  await Promise.all([fake, dropFake].map((target) => target?.close()));
});

async function addDingTalk(
  target: DingTalkFake,
  name: string,
  streamEvents: boolean,
): Promise<ConnectionView> {
  const { appSecret, ...config } = target.credentials;
  return unwrap(
    await cairn.api.connections.add({
      platform: 'dingtalk',
      name,
      mode: 'rag',
      config: { ...config, baseUrl: target.baseUrl, streamEvents },
      secrets: { appSecret: appSecret! },
    }),
  );
}

describe('DingTalk RAG over Stream, through createCairn', () => {
  it('indexes full text that search finds; a failed export fails only its document; no socket is left open', async () => {
    const docs = fake.control.documents();
    const broken = docs[5]!;
    fake.control.failExport(broken.key);
    // These documents' blocks are refused: their text can only come through the export over Stream.
    const exported = [docs[1]!, docs[5]!, docs[8]!, docs[10]!];
    for (const doc of exported) fake.control.refuseBlocks(doc.key);
    const view = await addDingTalk(fake, '钉钉知识库', true);
    expect({
      code: view.limitationCode,
      tested: unwrap(await cairn.api.connections.test({ id: view.id })).message,
    }).toEqual({
      code: 'dingtalk.blocks-stream',
      tested: expect.stringMatching(/full text arrives over DingTalk Stream\.$/),
    });

    const run = await syncToEnd(cairn, view.id);
    expect({
      status: run.status,
      counters: run.counters,
      errors: run.errors.map((error) => [error.externalId, error.code]),
    }).toMatchObject({
      status: 'partial',
      counters: { seen: docs.length, added: docs.length - 1, failed: 1 },
      errors: [[broken.externalId, 'DOCUMENT_FAILED']],
    });
    // Every export event was acked SUCCESS, and the finished sync released its Stream connection.
    // The last ack may still be on the wire when the run is reported finished (the sync does not wait for it), so poll.
    await expect
      .poll(() => fake.control.stream.acks.filter((ack) => ack.status === 'SUCCESS').length)
      .toBeGreaterThanOrEqual(exported.length - 1 + 1);
    await expect.poll(() => fake.control.stream.openSockets()).toBe(0);

    // "pg_dump" appears only in the code block of the 数据备份 documents' bodies, never in a title.
    const withBody = docs.filter((doc) => doc.markdown.includes('pg_dump') && doc.key !== broken.key);
    expect(withBody.length).toBeGreaterThan(0);
    const hits = (await searchHits(cairn, 'pg_dump', 20)).filter((hit) => hit.connectionId === view.id);
    expect(new Set(hits.map((hit) => hit.title))).toEqual(new Set(withBody.map((doc) => doc.title)));
    expect(hits.every((hit) => hit.source === 'index' && hit.platform === 'dingtalk')).toBe(true);
  });

  it('finishes a sync whose Stream socket drops midway: it reconnects with a new ticket and gets the redelivered events', async () => {
    const view = await addDingTalk(dropFake, 'Dropped', true);
    const docs = dropFake.control.documents();
    for (const doc of docs) dropFake.control.refuseBlocks(doc.key);
    // The test emits the export events itself: three, then the socket drops, then the rest.
    dropFake.control.autoExport = false;
    const running = syncToEnd(cairn, view.id);
    await expect.poll(() => dropFake.control.pendingExports().length, { timeout: 30_000 }).toBe(docs.length);
    for (const taskId of dropFake.control.pendingExports().slice(0, 3)) dropFake.control.emitExport(taskId);
    await expect
      .poll(() => dropFake.control.stream.acks.filter((ack) => ack.status === 'SUCCESS').length)
      .toBeGreaterThanOrEqual(3);
    dropFake.control.stream.dropSockets();
    for (const taskId of dropFake.control.pendingExports()) dropFake.control.emitExport(taskId);
    const run = await running;
    expect({ status: run.status, counters: run.counters }).toMatchObject({
      status: 'succeeded',
      counters: { added: 10, failed: 0 },
    });
    expect(dropFake.control.stream.connectionsAccepted()).toBeGreaterThanOrEqual(2);
  });

  it('with Stream off indexes full text through the blocks API, and live search works in direct mode', async () => {
    const local = await startDingTalkFake({ documents: 6, spaces: 2 });
    try {
      const view = await addDingTalk(local, 'No stream', false);
      expect({ code: view.limitationCode, limitation: view.limitation }).toEqual({
        code: 'dingtalk.blocks',
        limitation: expect.stringMatching(/^full text comes from DingTalk’s document blocks API/),
      });
      const run = await syncToEnd(cairn, view.id);
      expect({ status: run.status, added: run.counters.added }).toEqual({
        status: 'succeeded',
        added: local.control.documents().length,
      });
      expect(local.control.stream.connectionsAccepted()).toBe(0);
      unwrap(await cairn.api.connections.setMode({ id: view.id, mode: 'direct' }));
      const title = local.control.documents()[0]!.title;
      const live = (await searchHits(cairn, title, 20)).filter((hit) => hit.connectionId === view.id);
      expect({ first: live[0]?.title, allLive: live.every((hit) => hit.source === 'direct') }).toEqual({
        first: title,
        allLive: true,
      });
    } finally {
      await local.close();
    }
  });

  it('never logs the app secret, an access token or a Stream ticket', () => {
    const written = logLines.join('\n');
    const secrets = [fake, dropFake].flatMap((target) => [
      target.credentials.appSecret!,
      ...target.control.issuedTokens(),
      ...target.control.stream.issuedTickets(),
    ]);
    expect(logLines.some((line) => line.includes('DingTalk Stream connected'))).toBe(true);
    expect(secrets.filter((secret) => written.includes(secret))).toEqual([]);
  });
});
