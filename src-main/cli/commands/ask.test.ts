import { chatApi } from '../../core/app/chat-api';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CairnApi } from '@shared/contract';
import type { Cairn } from '../../core/app/cairn';
import { createChatKit } from '../../testing/chat-test-kit';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../../testing/fakes/fake-openai-server';
import { openDatabase, type Db } from '../../core/db/database';
import type { CliContext } from '../command';
import { askCommand } from './ask';

let db: Db;
let fake: FakeOpenAiServer;
beforeAll(async () => {
  [db, fake] = await Promise.all([openDatabase(), startFakeOpenAiServer()]);
});
afterAll(async () => {
  await fake.close();
  await db.close();
});

class Capture extends Writable {
  text = '';
  isTTY?: boolean;
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

/** A CliContext whose open() gives a Cairn with the real chat service (the only domain `ask` uses). */
function cliContext(options: { tty?: boolean; model?: boolean; signal?: AbortSignal } = {}) {
  const stdout = new Capture();
  stdout.isTTY = options.tty ?? false;
  const stderr = new Capture();
  let disposed = 0;
  const context: CliContext = {
    stdout,
    stderr,
    env: {},
    signal: options.signal ?? new AbortController().signal,
    connect: () => Promise.reject(new Error('cairn ask never reconnects')),
    dataDirPath: () => ':memory:',
    async open(): Promise<Cairn> {
      const kit = createChatKit(db, {
        chat:
          options.model === false ? null : { baseUrl: fake.baseUrl, apiKey: fake.apiKey, model: fake.model },
      });
      const api = { chat: chatApi(kit.service) } as unknown as CairnApi;
      return {
        api,
        cancellable: () => api,
        events: kit.events,
        dataDir: null,
        async dispose() {
          disposed++;
          await kit.service.dispose();
        },
      };
    },
  };
  return { context, stdout, stderr, disposed: () => disposed };
}

describe('cairn ask', () => {
  it('prints the answer with its numbered sources and token usage', async () => {
    fake.behaviour = { kind: 'cite' };
    const { context, stdout, disposed } = cliContext();
    expect(await askCommand.run(['When does the VPN certificate expire?', '--k', '3'], context)).toBe(0);
    const [answer, ...rest] = stdout.text.split('\n\n');
    expect(answer).toMatch(/^The office VPN certificate expires every 90 days \[1\]\./);
    expect(rest.join('\n\n')).toMatch(
      /^Searched for: “When does the VPN certificate expire\?”\n\nSources:\n\[1\] VPN Guide › Certificates \(Handbook · yuque\)\n {4}https:\/\/www\.yuque\.com\/handbook\/vpn\n {4}“The office VPN certificate expires every 90 days\.”/,
    );
    expect(stdout.text).toMatch(/\nTokens: \d+ prompt \+ \d+ answer = \d+\n$/);
    expect(disposed()).toBe(1);
  });

  it('--json gives the answer, cited source cards, usage, mode and state', async () => {
    fake.behaviour = { kind: 'cite-out-of-range' };
    const { context, stdout } = cliContext();
    expect(
      await askCommand.run(
        [
          '--json',
          'What does the office handbook say about the IT portal, expenses, the printer and laptops?',
          '--k',
          '4',
        ],
        context,
      ),
    ).toBe(0);
    const printed = JSON.parse(stdout.text) as Record<string, unknown> & {
      citations: {
        n: number;
        title: string;
        paragraph: string;
        documentId: number | null;
        charStart: number | null;
      }[];
    };
    expect(Object.keys(printed).sort()).toEqual([
      'answer',
      'citations',
      'conversationId',
      'droppedMarkers',
      'error',
      'incomplete',
      'messageId',
      'mode',
      'searchedFor',
      'usage',
    ]);
    expect(printed).toMatchObject({
      mode: 'model',
      incomplete: false,
      droppedMarkers: [7],
      error: null,
      usage: { totalTokens: expect.any(Number) },
    });
    expect(printed.citations.map((c) => c.n)).toEqual([1, 2, 3]);
    expect(printed.citations[0]).toMatchObject({
      title: expect.any(String),
      paragraph: expect.any(String),
      documentId: expect.any(Number),
      charStart: 0,
    });
  });

  it('streams tokens on a terminal and notes removed citations after them', async () => {
    fake.behaviour = { kind: 'cite-out-of-range' };
    const { context, stdout } = cliContext({ tty: true });
    expect(
      await askCommand.run(
        [
          'What does the office handbook say about the IT portal, expenses, the printer and laptops?',
          '--k',
          '4',
        ],
        context,
      ),
    ).toBe(0);
    expect(stdout.text).toContain('This is also documented elsewhere [7].');
    expect(stdout.text).toContain('(Removed citation to no source: [7])');
  });

  it('honours a Ctrl-C that came before the answer had an id: exit 130, no full answer', async () => {
    fake.behaviour = { kind: 'cite' };
    const controller = new AbortController();
    controller.abort();
    const { context, stdout } = cliContext({ signal: controller.signal });
    expect(await askCommand.run(['--json', 'When does the VPN certificate expire?'], context)).toBe(130);
    expect(JSON.parse(stdout.text)).toMatchObject({ incomplete: true, error: { code: 'CANCELLED' } });
  });

  it('labels an extractive answer, and fails clearly on an error or bad arguments', async () => {
    const offline = cliContext({ model: false });
    expect(await askCommand.run(['When does the VPN certificate expire?'], offline.context)).toBe(0);
    expect(offline.stdout.text.startsWith('**Extractive answer**')).toBe(true);

    fake.behaviour = { kind: 'rate-limit' };
    const limited = cliContext();
    expect(await askCommand.run(['When does the VPN certificate expire?'], limited.context)).toBe(1);
    expect(limited.stderr.text).toMatch(/rate limiting requests.*\(RATE_LIMITED\)/);
    expect(limited.stdout.text).toContain('(incomplete answer)');

    const bad = cliContext();
    expect(await askCommand.run(['--k', 'ten', 'question'], bad.context)).toBe(2);
    expect(await askCommand.run([], bad.context)).toBe(2);
    expect(bad.stderr.text).toContain('usage: cairn ask');
  });
});
