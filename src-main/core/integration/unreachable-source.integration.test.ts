/**
 * A platform server that goes away mid-sync (#27 item 1), through the real composition root and
 * the Yuque fake: the run stops as failed naming the address after a few attempts in a row could
 * not reach it, instead of trying every remaining document behind Yuque's pacing; the index keeps
 * what it had (nothing deleted, nothing half-written); what it did not reach is deferred, not failed.
 *
 * The stop is measured in attempts (every request the connector sent after the server closed), not
 * in wall time: the first test holds the next document behind a 10-minute pacing window, so only
 * the reachability probe can end the run at all, and it must end with that one attempt.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncRunView } from '@shared/models';
import { createCairn, type CairnInternals } from '../app/create-cairn';
import type { RateWindow } from '../connectors/http/platform-http';
import { defaultConnectorFactories } from '../connectors/registry';
import { YuqueConnector } from '../connectors/yuque/yuque-connector';
import { silentLogger } from '../logging/logger';
import { startYuqueFake, type YuqueFake } from '../../testing/fakes/yuque-fake';
import { syncToEnd, unwrap } from '../../testing/integration-kit';

const UNTHROTTLED: RateWindow[] = [{ intervalMs: 1000, intervalCap: 1000 }];
const DOCUMENT_PATH = '/api/v2/repos/docs/';

/** What the connector's HTTP client does next: how it is paced, and when the server goes away. */
interface Plan {
  rate: RateWindow[];
  concurrency?: number;
  /** A document request's own timeout (the client's 15 s when unset). */
  timeoutMs?: number;
  /** Closes the server just before the connector sends this document request (1-based). */
  closeBeforeDocument: number | null;
  /** Instead of closing, the server hangs: it still accepts connections but never answers again. */
  hangs?: boolean;
}

/**
 * A TCP relay in front of the fake that can make it hang: from `hang()` on, no byte goes either way
 * on the connections it has, and new ones are accepted and never answered. A server stuck in this
 * way still passes a TCP connect, which is what sets it apart from one that went away.
 */
interface HangingRelay {
  origin: string;
  hang(): void;
  close(): Promise<void>;
}

async function startHangingRelay(target: string): Promise<HangingRelay> {
  const { hostname, port } = new URL(target);
  let hung = false;
  const sockets = new Set<Socket>();
  const server = createNetServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    if (hung) return;
    const upstream = connect({ host: hostname, port: Number(port) });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('data', (chunk) => hung || upstream.write(chunk));
    upstream.on('data', (chunk) => hung || client.write(chunk));
    client.on('end', () => hung || upstream.end());
    upstream.on('end', () => hung || client.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hang: () => {
      hung = true;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let scratch: string;
let cairn: CairnInternals;
let fake: YuqueFake;
let relay: HangingRelay | null = null;
let plan: Plan = { rate: UNTHROTTLED, closeBeforeDocument: null };
/** Every request the connector sent, and whether the server was already closed when it did. */
let sent: { url: string; afterClose: boolean }[] = [];
let closed = false;
/** Document requests sent since the plan was last set. */
let documentsSent = 0;

/** The next sync runs under `next`: its requests and document count start from zero. */
function planNext(next: Plan): void {
  plan = next;
  sent = [];
  documentsSent = 0;
}

/** `fetch` as the Yuque connector's client calls it, closing the server at the planned document. */
const plannedFetch: typeof fetch = async (input, init) => {
  const url = String(input instanceof Request ? input.url : input);
  if (url.includes(DOCUMENT_PATH)) {
    documentsSent += 1;
    if (documentsSent === plan.closeBeforeDocument && !closed) {
      closed = true;
      if (plan.hangs) relay?.hang();
      else await fake.close();
    }
  }
  sent.push({ url, afterClose: closed });
  return fetch(input, init);
};

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'cairn-unreachable-it-'));
  cairn = await createCairn({
    dataDir: join(scratch, 'data'),
    env: {},
    scheduler: false,
    logger: silentLogger(),
    factories: {
      ...defaultConnectorFactories(),
      yuque: (init) =>
        new YuqueConnector(init, {
          http: {
            rate: plan.rate,
            ...(plan.concurrency ? { concurrency: plan.concurrency } : {}),
            ...(plan.timeoutMs ? { timeoutMs: plan.timeoutMs } : {}),
            fetchImpl: plannedFetch,
          },
        }),
    },
  });
});

afterAll(async () => {
  await relay?.close();
  await cairn?.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

interface IndexRow {
  external_id: string;
  content_hash: string;
  chunks: number;
}

async function indexOf(connectionId: string): Promise<IndexRow[]> {
  const rows = await cairn.db.query<IndexRow>(
    `SELECT d.external_id, d.content_hash, (SELECT count(*)::int FROM chunks c WHERE c.document_id = d.id) AS chunks
       FROM documents d WHERE d.connection_id = $1 ORDER BY d.external_id`,
    [connectionId],
  );
  return rows.rows;
}

/**
 * A Yuque connection synced once with the server up; then every document changes and two are
 * deleted upstream, so the next sync has every document to fetch and two to delete.
 */
async function syncedThenChanged(
  name: string,
  documents: number,
  { behindRelay = false } = {},
): Promise<{ id: string; before: IndexRow[] }> {
  fake = await startYuqueFake({
    documents,
    knowledgeBases: 2,
    specialDocuments: false,
    token: `${name}-token-0001`,
  });
  closed = false;
  planNext({ rate: UNTHROTTLED, closeBeforeDocument: null });
  let baseUrl = fake.baseUrl;
  if (behindRelay) {
    relay = await startHangingRelay(fake.baseUrl);
    baseUrl = relay.origin + new URL(fake.baseUrl).pathname;
  }
  const view = unwrap(
    await cairn.api.connections.add({
      platform: 'yuque',
      name,
      mode: 'rag',
      config: { baseUrl },
      secrets: { token: `${name}-token-0001` },
    }),
  );
  const first = await syncToEnd(cairn, view.id);
  expect(first.errors).toEqual([]);
  expect(first).toMatchObject({ status: 'succeeded', counters: { added: documents, failed: 0 } });
  const live = fake.control.store.list();
  for (const document of live)
    fake.control.changeDocument(document.id, { text: `${document.title}\nRewritten.` });
  fake.control.deleteDocument(live[0]!.id);
  fake.control.deleteDocument(live[1]!.id);
  return { id: view.id, before: await indexOf(view.id) };
}

/** The run is the failed stop the issue asks for: the address named, nothing failed, the rest deferred. */
function expectStopped(run: SyncRunView, toFetch: number): void {
  expect(run.status).toBe('failed');
  expect(run.error).toMatchObject({
    code: 'SOURCE_UNREACHABLE',
    message: expect.stringMatching(/^Cannot reach 127\.0\.0\.1:\d+ \([A-Z_]+\): the sync stopped/),
    details: { reason: 'sync.unreachable', params: { host: expect.stringMatching(/^127\.0\.0\.1:\d+$/) } },
  });
  // Documents not reached wait for the next sync: none counted as failed, none listed as an error.
  expect(run.counters.failed).toBe(0);
  expect(run.errors).toEqual([]);
  expect(run.counters.deleted).toBe(0);
  expect(run.counters.updated + run.counters.deferred).toBe(toFetch);
  expect(run.counters.deferred).toBeGreaterThan(0);
  expect(run.error?.message).toContain(`${run.counters.deferred.toLocaleString('en')} documents not reached`);
  // One reason for all of them: the deferred notes say the same thing once grouped.
  expect(new Set(run.notes.map((note) => `${note.status} ${note.reason}`)).size).toBe(1);
}

describe('a platform server that goes away mid-sync', () => {
  it('stops after one document attempt when the pacing holds the next one back: the probe finds the server gone', async () => {
    const { id, before } = await syncedThenChanged('Dead server, paced', 40);
    // Serial requests, and after the listing room for exactly one document request in a 10-minute
    // window: once the server is gone, only the probe (no request, no queue) can stop the run, and
    // the test's timeout (well under the window) fails if it does not.
    const listingRequests = sent.filter((request) => !request.url.includes(DOCUMENT_PATH)).length;
    planNext({
      rate: [{ intervalMs: 600_000, intervalCap: listingRequests + 1 }, ...UNTHROTTLED],
      concurrency: 1,
      closeBeforeDocument: 1,
    });
    const run = await syncToEnd(cairn, id);

    expectStopped(run, 40 - 2);
    expect(sent.filter((request) => !request.url.includes(DOCUMENT_PATH))).toHaveLength(listingRequests);
    expect(sent.filter((request) => request.afterClose)).toHaveLength(1);
    expect(run.counters.deferred).toBe(38);
    // The previous index is kept as it was: same documents (the two deleted upstream too), same text.
    expect(await indexOf(id)).toEqual(before);
    // The card says why and what waits (a failed run leaves the rate-limit sentence's count alone).
    const view = unwrap(await cairn.api.connections.list()).find((connection) => connection.id === id)!;
    expect(view).toMatchObject({ syncStatus: 'failed', syncErrorCode: 'SOURCE_UNREACHABLE', deferred: 0 });
    expect(view.syncError).toBe(run.error?.message);
  });

  it('a server that hangs (accepts connections, never answers) stops after one document attempt: the probe asks for an answer', async () => {
    const { id, before } = await syncedThenChanged('Hung server, paced', 40, { behindRelay: true });
    // As in the first test, the pacing leaves room for one document request in 10 minutes, so only
    // the probe can end the run. A TCP connect succeeds on a hung server: without the HEAD probe,
    // this run waits out the window and the test times out.
    const listingRequests = sent.filter((request) => !request.url.includes(DOCUMENT_PATH)).length;
    planNext({
      rate: [{ intervalMs: 600_000, intervalCap: listingRequests + 1 }, ...UNTHROTTLED],
      concurrency: 1,
      timeoutMs: 3000,
      closeBeforeDocument: 1,
      hangs: true,
    });
    const run = await syncToEnd(cairn, id);

    expectStopped(run, 40 - 2);
    expect(run.error?.message).toMatch(
      /^Cannot reach 127\.0\.0\.1:\d+ \(TIMEOUT\): the sync stopped after 3 attempts/,
    );
    expect(sent.filter((request) => request.afterClose)).toHaveLength(1);
    expect(run.counters.deferred).toBe(38);
    expect(await indexOf(id)).toEqual(before);
    await relay?.close();
    relay = null;
  }, 60_000);

  it('at Yuque’s own pacing, stops within a few attempts of the server closing and keeps what it indexed', async () => {
    const documents = 120;
    const { id, before } = await syncedThenChanged('Dead server, Yuque pacing', documents);
    // The connector's own pacing (80 a minute, 5 a second) and concurrency: the case.
    planNext({
      rate: [
        { intervalMs: 60_000, intervalCap: 80 },
        { intervalMs: 1000, intervalCap: 5 },
      ],
      closeBeforeDocument: 21,
    });
    const run = await syncToEnd(cairn, id);

    expectStopped(run, documents - 2);
    const afterClose = sent.filter((request) => request.afterClose);
    // Three attempts in a row decide; the client's other requests were in flight or already queued
    // (4 at once). Without the stop, all 98 remaining documents would be tried.
    expect(afterClose.length).toBeGreaterThanOrEqual(1);
    expect(afterClose.length).toBeLessThanOrEqual(3 + 4);
    expect(run.counters.updated).toBeGreaterThanOrEqual(20 - 4);
    expect(run.counters.updated).toBeLessThanOrEqual(20);
    // Every indexed document is whole at its old or its new text; none was deleted.
    const after = await indexOf(id);
    expect(after.map((row) => row.external_id)).toEqual(before.map((row) => row.external_id));
    const changed = after.filter((row, index) => row.content_hash !== before[index]!.content_hash);
    expect(changed).toHaveLength(run.counters.updated);
    expect(after.every((row) => row.chunks > 0)).toBe(true);
    // A first sync of 120 documents before the stop.
  }, 120_000);
});
