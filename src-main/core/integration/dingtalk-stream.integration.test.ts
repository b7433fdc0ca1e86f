/**
 * DingTalk in RAG mode through the real composition root: the registry's connector leases the
 * production Stream client, which opens the fake's gateway and WebSocket; export events arrive as
 * EVENT frames and are acked. Covers full text indexed and searchable, a failed export recorded on its
 * document only, a socket dropped mid-sync, Stream off staying direct-only, and no secret or ticket
 * in the logs.
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
    const view = await addDingTalk(fake, '钉钉知识库', true);
    expect({
      code: view.limitationCode,
      tested: unwrap(await cairn.api.connections.test({ id: view.id })).message,
    }).toEqual({
      code: 'dingtalk.stream-beta',
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
      .toBeGreaterThanOrEqual(docs.length + 1);
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
    dropFake.control.exportDelayMs = 40;
    let dropped = false;
    const stop = cairn.events.on('sync.progress', (progress) => {
      if (!dropped && progress.connectionId === view.id && progress.documentsDone >= 3) {
        dropped = true;
        dropFake.control.stream.dropSockets();
      }
    });
    try {
      const run = await syncToEnd(cairn, view.id);
      expect({ dropped, status: run.status, counters: run.counters }).toMatchObject({
        dropped: true,
        status: 'succeeded',
        counters: { added: 10, failed: 0 },
      });
      expect(dropFake.control.stream.connectionsAccepted()).toBeGreaterThanOrEqual(2);
    } finally {
      stop();
    }
  });

  it('with Stream off stays direct-only and says so, while live search works', async () => {
    const view = await addDingTalk(fake, 'No stream', false);
    expect({ code: view.limitationCode, limitation: view.limitation }).toEqual({
      code: 'dingtalk.no-stream',
      limitation: expect.stringMatching(/^full text unavailable: direct search only/),
    });
    const started = await cairn.api.sync.start({ connectionId: view.id });
    expect(started).toMatchObject({
      ok: false,
      error: {
        code: 'UNSUPPORTED',
        message: expect.stringMatching(/Receive full text over DingTalk Stream/),
      },
    });
    unwrap(await cairn.api.connections.setMode({ id: view.id, mode: 'direct' }));
    const title = fake.control.documents()[0]!.title;
    const live = (await searchHits(cairn, title, 20)).filter((hit) => hit.connectionId === view.id);
    expect({ first: live[0]?.title, allLive: live.every((hit) => hit.source === 'direct') }).toEqual({
      first: title,
      allLive: true,
    });
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
