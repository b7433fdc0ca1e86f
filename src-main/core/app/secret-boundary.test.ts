import { unwrap } from '../../testing/integration-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connector } from '../connectors/connector';
import { CairnError } from '../errors';
import { createLogger, SecretRedactor } from '../logging/logger';
import { createCairn, type CairnInternals } from './create-cairn';

// A platform that quotes the credential it was given back in its error messages (some do).
const TOKEN = 'yq-Echoed-Secret-7f3a9c';

function echoingYuque(init: { secrets: Record<string, string> }): Connector {
  const refuse = () =>
    new CairnError('AUTH_INVALID', `Yuque refused the request (invalid token "${init.secrets['token']}").`);
  return {
    platform: 'yuque',
    capabilities: { fullText: true, search: true, experimental: false, limitation: null },
    async validate() {
      throw refuse();
    },
    async *list() {
      yield {
        externalId: 'd1',
        title: 'Doc',
        knowledgeBase: 'kb',
        url: null,
        remoteUpdatedAt: null,
        revision: null,
      };
      throw refuse();
    },
    async fetch() {
      throw refuse();
    },
    async search() {
      throw refuse();
    },
  };
}

let cairn: CairnInternals;
const logLines: string[] = [];

beforeAll(async () => {
  const redactor = new SecretRedactor();
  cairn = await createCairn({
    scheduler: false,
    env: {},
    redactor,
    logger: createLogger({ redactor, level: 'debug', sink: (line) => logLines.push(line) }),
    factories: { yuque: echoingYuque },
  });
});

afterAll(async () => {
  await cairn.dispose();
});

describe('secrets a platform echoes back', () => {
  it('never reach the renderer, the sync records or the logs', async () => {
    const seen: string[] = [];
    const off = cairn.events.onAny((name, payload) => seen.push(JSON.stringify({ name, payload })));
    const newConnection = {
      platform: 'yuque' as const,
      name: 'team wiki',
      mode: 'rag' as const,
      config: { baseUrl: 'http://127.0.0.1:9/api/v2' },
      secrets: { token: TOKEN },
    };
    const testedNew = await cairn.api.connections.testNew(newConnection);
    const rag = unwrap(await cairn.api.connections.add(newConnection));
    const tested = await cairn.api.connections.test({ id: rag.id });
    unwrap(await cairn.api.sync.start({ connectionId: rag.id }));
    await cairn.whenIdle();
    const runs = unwrap(await cairn.api.sync.runs({ connectionId: rag.id }));
    const live = unwrap(
      await cairn.api.connections.add({ ...newConnection, name: 'live wiki', mode: 'direct' }),
    );
    const searched = unwrap(await cairn.api.search.query({ query: 'anything', connectionIds: [live.id] }));
    const listed = unwrap(await cairn.api.connections.list());
    off();

    // The failures are still reported, with their codes.
    expect([
      testedNew.ok || testedNew.error.code,
      tested.ok || tested.error.code,
      runs[0]?.status,
      searched.warnings[0]?.error.code,
    ]).toEqual(['AUTH_INVALID', 'AUTH_INVALID', 'failed', 'AUTH_INVALID']);
    const everything = JSON.stringify({ testedNew, tested, runs, searched, listed, seen, logLines });
    expect(everything).toContain('[redacted]');
    expect(everything).not.toContain(TOKEN);
  });
});
