import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, SecretRedactor } from '../../logging/logger';
import { startDingTalkFake, type DingTalkFake } from '../../../testing/fakes/dingtalk-fake';
import type { CairnError } from '../../errors';
import type { DingTalkStreamEvent } from './export-events';
import { DingTalkStreamClient, type DingTalkStreamClientOptions } from './stream-client';

let fake: DingTalkFake;
const lines: string[] = [];
const clients: DingTalkStreamClient[] = [];
const redactor = new SecretRedactor();
const logger = createLogger({ redactor, level: 'debug', sink: (line) => void lines.push(line) });

beforeAll(async () => {
  fake = await startDingTalkFake({ documents: 2, spaces: 1 });
  // As ConnectionService does for every secret it reads.
  redactor.register(fake.credentials.appSecret);
});
afterAll(() => fake.close());
afterEach(() => {
  for (const client of clients.splice(0)) client.dispose();
  fake.control.clearFaults();
  fake.control.stream.freeze(false);
  fake.control.stream.redeliverAfterMs = 300;
});

function client(options: Partial<DingTalkStreamClientOptions> = {}): DingTalkStreamClient {
  const created = new DingTalkStreamClient({
    baseUrl: fake.baseUrl,
    clientId: fake.credentials.appKey!,
    clientSecret: fake.credentials.appSecret!,
    logger,
    backoffBaseMs: 20,
    backoffMaxMs: 200,
    ...options,
  });
  clients.push(created);
  return created;
}

/** A listener that takes export events only, and records every event it saw. */
function recorder() {
  const seen: DingTalkStreamEvent[] = [];
  return {
    seen,
    listener: (event: DingTalkStreamEvent) => (
      seen.push(event),
      event.eventType === 'doc_content_export_result'
    ),
  };
}

const exportEvent = (taskId: string) => ({
  bizData: JSON.stringify({ taskId, success: true, url: 'https://x.example/a.md' }),
});

describe('DingTalkStreamClient against the fake gateway and socket', () => {
  it('connects only when a listener subscribes, acks SUCCESS what it took and LATER the rest, and answers ping', async () => {
    const stream = client();
    const ticketsBefore = fake.control.stream.issuedTickets().length;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(fake.control.stream.issuedTickets().length).toBe(ticketsBefore); // lazy: nothing opened yet

    fake.control.stream.redeliverAfterMs = 60_000;
    const { seen, listener } = recorder();
    stream.subscribe(listener);
    await stream.ready();
    const acksBefore = fake.control.stream.acks.length;
    fake.control.stream.push('doc_content_export_result', exportEvent('t-1'));
    fake.control.stream.push('user_add_org', { userId: ['u1'] });
    await expect.poll(() => fake.control.stream.acks.length - acksBefore).toBe(2);
    expect({
      events: seen.map((event) => event.eventType).sort(),
      acks: fake.control.stream.acks
        .slice(acksBefore)
        .map((ack) => `${ack.code} ${ack.status}`)
        .sort(),
      pingReplies: await fake.control.stream.ping(),
      tickets: fake.control.stream.issuedTickets().length - ticketsBefore,
    }).toEqual({
      events: ['doc_content_export_result', 'user_add_org'],
      acks: ['200 LATER', '200 SUCCESS'],
      pingReplies: 1,
      tickets: 1,
    });
  });

  it('gets an event again until it is acked SUCCESS, and keeps events pushed while the socket was down', async () => {
    const stream = client();
    fake.control.stream.redeliverAfterMs = 40;
    let accept = false;
    const seen: string[] = [];
    stream.subscribe((event) => (seen.push(event.eventType), accept));
    await stream.ready();
    const waiting = fake.control.stream.undelivered(); // the earlier test's LATER event
    fake.control.stream.push('doc_content_export_result', exportEvent('t-2'));
    await expect.poll(() => seen.length).toBeGreaterThanOrEqual(2); // refused once (LATER), pushed again
    accept = true;
    await expect.poll(() => fake.control.stream.undelivered()).toBe(waiting);

    const accepted = fake.control.stream.connectionsAccepted();
    fake.control.stream.dropSockets();
    fake.control.stream.push('doc_content_export_result', exportEvent('t-3'));
    await expect.poll(() => fake.control.stream.connectionsAccepted()).toBe(accepted + 1);
    await expect.poll(() => fake.control.stream.undelivered()).toBe(waiting);
    expect(stream.connected).toBe(true);
  });

  it('moves to a new connection with a new ticket when the server says disconnect', async () => {
    const stream = client();
    const { seen, listener } = recorder();
    stream.subscribe(listener);
    await stream.ready();
    const tickets = fake.control.stream.issuedTickets().length;
    const accepted = fake.control.stream.connectionsAccepted();
    fake.control.stream.sendDisconnect(5000);
    await expect.poll(() => fake.control.stream.connectionsAccepted()).toBe(accepted + 1);
    fake.control.stream.push('doc_content_export_result', exportEvent('t-4'));
    await expect.poll(() => seen.length).toBe(1);
    const issued = fake.control.stream.issuedTickets();
    expect({
      newTickets: issued.length - tickets,
      distinct: new Set(issued).size === issued.length,
      open: fake.control.stream.openSockets(),
    }).toEqual({ newTickets: 1, distinct: true, open: 1 });
  });

  it('backs off exponentially while the gateway fails, tells listeners after 3 failures, and recovers', async () => {
    const calls: string[] = [];
    const stream = client({
      backoffBaseMs: 40,
      random: () => 1,
      fetchImpl: (input, init) => (calls.push(String(input)), fetch(input, init)),
    });
    const logged = lines.length;
    fake.control.inject({ kind: 'server-error', times: 3, match: '/gateway/' });
    const failures: CairnError[] = [];
    stream.subscribe(
      () => true,
      (error) => failures.push(error),
    );
    await expect.poll(() => stream.connected).toBe(true);
    expect({ calls: calls.length, failures: failures.map((error) => error.code) }).toEqual({
      calls: 4,
      failures: ['SOURCE_ERROR'],
    });
    // The delays it chose, from its own log (jitter pinned to its maximum): 40, 80, 160 ms, doubling.
    const delays = lines
      .slice(logged)
      .filter((line) => line.includes('DingTalk Stream connection failed; retrying'))
      .map((line) => Number(/"inMs":(\d+)/.exec(line)?.[1]));
    expect(delays).toEqual([40, 80, 160]);
    expect(failures[0]!.message).toMatch(
      /^Could not open the DingTalk Stream connection \(3 attempts; last: The DingTalk Stream gateway failed/,
    );
  });

  it('stops at once when the gateway refuses the credentials, and says so', async () => {
    const stream = client({ clientSecret: 'not-the-right-secret-42' });
    const gatewayCalls = () =>
      fake.control.requests.filter((call) => call === 'POST /v1.0/gateway/connections/open').length;
    const before = gatewayCalls();
    const failures: string[] = [];
    stream.subscribe(
      () => true,
      (error) => failures.push(error.code),
    );
    await expect(stream.ready()).rejects.toMatchObject({
      code: 'AUTH_INVALID',
      message: expect.stringMatching(
        /refused the app key or app secret for Stream mode \(invalidClientSecret/,
      ),
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect({ calls: gatewayCalls() - before, failures }).toEqual({ calls: 1, failures: ['AUTH_INVALID'] });
  });

  it('reports an unreachable gateway after its retries', async () => {
    const stream = client({ baseUrl: 'http://127.0.0.1:9', backoffBaseMs: 5 });
    stream.subscribe(() => true);
    await expect(stream.ready()).rejects.toMatchObject({
      code: 'SOURCE_UNREACHABLE',
      message: expect.stringMatching(/Cannot reach the DingTalk Stream gateway at 127\.0\.0\.1:9/),
    });
  });

  it('tells waiting listeners when a lost connection cannot be reopened', async () => {
    const stream = client({ backoffBaseMs: 5 });
    const failures: string[] = [];
    stream.subscribe(
      () => true,
      (error) => failures.push(`${error.code} ${error.message}`),
    );
    await stream.ready();
    fake.control.inject({ kind: 'server-error', times: 3, match: '/gateway/' });
    fake.control.stream.dropSockets();
    await expect.poll(() => failures.length).toBe(1);
    expect(failures[0]).toMatch(
      /^SOURCE_ERROR The DingTalk Stream connection closed before the export events arrived and could not be reopened \(3 attempts; last: /,
    );
    await expect.poll(() => stream.connected).toBe(true); // and it keeps trying
  });

  it('replaces a connection that stops answering pings', async () => {
    const stream = client({ keepAliveMs: 30, deadAfterMs: 60 });
    stream.subscribe(() => true);
    await stream.ready();
    const accepted = fake.control.stream.connectionsAccepted();
    fake.control.stream.freeze(true);
    await expect
      .poll(() => fake.control.stream.connectionsAccepted(), { timeout: 3000 })
      .toBeGreaterThan(accepted);
    fake.control.stream.freeze(false);
    await expect.poll(() => stream.connected).toBe(true);
  });

  it('closes when idle and on dispose, and reconnects for the next listener', async () => {
    const stream = client({ idleCloseMs: 40 });
    const unsubscribe = stream.subscribe(() => true);
    await stream.ready();
    expect(fake.control.stream.openSockets()).toBe(1);
    unsubscribe();
    await expect.poll(() => fake.control.stream.openSockets()).toBe(0);
    stream.subscribe(() => true);
    await stream.ready();
    expect(fake.control.stream.openSockets()).toBe(1);
    stream.dispose();
    await expect.poll(() => fake.control.stream.openSockets()).toBe(0);
    await expect(stream.ready()).rejects.toMatchObject({ code: 'CANCELLED' });
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(fake.control.stream.openSockets()).toBe(0);
  });

  it('never writes the secret or a ticket to the log', () => {
    const written = lines.join('\n');
    const secrets = [
      fake.credentials.appSecret!,
      'not-the-right-secret-42',
      ...fake.control.stream.issuedTickets(),
    ];
    expect(lines.some((line) => line.includes('DingTalk Stream connected'))).toBe(true);
    expect(secrets.filter((secret) => written.includes(secret))).toEqual([]);
    expect(written).not.toMatch(/ticket=/i);
  });
});
