import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger, silentLogger, type Logger } from '../../logging/logger';
import type { DocumentRef } from '../connector';
import { startImaFake, type ImaExpectedItem, type ImaFake } from '../../../testing/fakes/ima-fake';
import { ImaConnector, type ImaConnectorOptions } from './ima-connector';
import { failure, listAll } from '../../../testing/connector-test-kit';
import { IMA_SKILL_VERSION } from './ima-client';

let fake: ImaFake;
beforeAll(async () => {
  // 3 knowledge bases with nested folders, pages of 2: KB search and item lists both page.
  fake = await startImaFake({ documents: 24, spaces: 3, maxPageSize: 2 });
});
afterAll(() => fake.close());
afterEach(() => {
  fake.control.clearFaults();
  fake.control.restoreAuth();
  fake.control.envelope = 'code';
  fake.control.notAuthor.clear();
});

function connect(
  target: ImaFake,
  options: ImaConnectorOptions & {
    logger?: Logger;
    config?: Record<string, string>;
    secrets?: Record<string, string>;
  } = {},
): ImaConnector {
  const { logger, config, secrets, ...rest } = options;
  return new ImaConnector(
    {
      config: { baseUrl: target.baseUrl, clientId: target.credentials.clientId!, ...config },
      secrets: { apiKey: target.credentials.apiKey!, ...secrets },
      logger: logger ?? silentLogger(),
    },
    { requestsPerSecond: 1000, ...rest, http: { backoffBaseMs: 5, ...rest.http } },
  );
}

function sorted<T extends { externalId: string }>(items: T[]): T[] {
  return [...items].sort((a, b) => a.externalId.localeCompare(b.externalId));
}

function expectedRefs(target: ImaFake): DocumentRef[] {
  return sorted(
    target.control.items().map((item) => ({
      externalId: item.externalId,
      title: item.title,
      knowledgeBase: item.knowledgeBase,
      url: null,
      remoteUpdatedAt: null,
      revision: null,
    })),
  );
}

function refOf(item: ImaExpectedItem): DocumentRef {
  return {
    externalId: item.externalId,
    title: item.title,
    knowledgeBase: item.knowledgeBase,
    url: null,
    remoteUpdatedAt: null,
    revision: null,
  };
}

function itemOfKind(target: ImaFake, kind: ImaExpectedItem['kind']): ImaExpectedItem {
  return target.control.items().find((item) => item.kind === kind)!;
}

describe('ImaConnector: auth', () => {
  it('validates good credentials and names each failure', async () => {
    expect(await connect(fake).validate()).toMatchObject({
      message: expect.stringMatching(/^Connected to IMA \(experimental\); knowledge bases are visible/),
      code: 'connection.imaOk',
      params: { visible: 'some', example: expect.any(String) },
    });
    await expect(
      connect(fake, { secrets: { apiKey: 'wrong-api-key-000' } }).validate(),
    ).rejects.toMatchObject({ code: 'AUTH_INVALID' });
    await expect(
      connect(fake, { config: { baseUrl: 'http://127.0.0.1:9' } }).validate(),
    ).rejects.toMatchObject({ code: 'SOURCE_UNREACHABLE' });
    const before = fake.control.requests.length;
    await expect(connect(fake, { secrets: { apiKey: '' } }).validate()).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringMatching(/API key/),
    });
    expect(fake.control.requests.length).toBe(before);
  });

  it('stops with AUTH_INVALID when authorisation lapses mid-sync (IMA keys cannot be refreshed)', async () => {
    const refs: DocumentRef[] = [];
    const run = (async () => {
      for await (const ref of connect(fake).list()) {
        refs.push(ref);
        if (refs.length === 3) fake.control.revokeAuth();
      }
    })();
    await expect(run).rejects.toMatchObject({
      code: 'AUTH_INVALID',
      message: expect.stringMatching(/authorise the key again/),
    });
    expect(refs.length).toBeGreaterThanOrEqual(3);
  });

  it('throttles to one request per second by default', async () => {
    const connector = new ImaConnector({
      config: { baseUrl: fake.baseUrl, clientId: fake.credentials.clientId! },
      secrets: { apiKey: fake.credentials.apiKey! },
      logger: silentLogger(),
    });
    // The pacer and the fake's arrival stamps read one fake clock, which moves only when the test says.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    try {
      const t0 = Date.now();
      const before = fake.control.arrivals.length;
      let settled = 0;
      const both = Promise.all(
        [connector.validate(), connector.validate()].map((work) => work.finally(() => void settled++)),
      );
      while (settled < 1) await new Promise((resolve) => setImmediate(resolve));
      await vi.advanceTimersByTimeAsync(1000);
      await both;
      expect(fake.control.arrivals.slice(before).map((at) => at - t0)).toEqual([0, 1000]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('ImaConnector: listing, content and search', () => {
  it('lists every item of every knowledge base across pages and folders, with no revision', async () => {
    const start = fake.control.requests.length;
    expect(sorted(await listAll(connect(fake)))).toEqual(expectedRefs(fake));
    const calls = fake.control.requests.slice(start);
    expect(calls.filter((call) => call === 'POST /openapi/wiki/v1/search_knowledge_base')).toHaveLength(2);
    expect(calls.every((call) => call.startsWith('POST /openapi/wiki/v1/'))).toBe(true);
  });

  it('accepts the retcode/errmsg envelope too', async () => {
    fake.control.envelope = 'retcode';
    expect(sorted(await listAll(connect(fake)))).toEqual(expectedRefs(fake));
    await expect(
      connect(fake, { secrets: { apiKey: 'wrong-api-key-000' } }).validate(),
    ).rejects.toMatchObject({ code: 'AUTH_INVALID' });
  });

  it('fetches notes as Markdown and .md/.txt files through the signed link; refuses other files per document', async () => {
    const connector = connect(fake);
    for (const kind of ['note', 'markdown-file', 'text-file'] as const) {
      const item = itemOfKind(fake, kind);
      expect({ kind, markdown: (await connector.fetch(refOf(item))).markdown }).toEqual({
        kind,
        markdown: item.markdown,
      });
    }
    await expect(connector.fetch(refOf(itemOfKind(fake, 'pdf')))).rejects.toMatchObject({
      code: 'UNSUPPORTED',
      message: expect.stringMatching(/not a text file/),
    });
  });

  it('reads notes as Markdown through export_note; a note whose export is refused (210005) alone falls back to plain text', async () => {
    const [refused, exported] = fake.control.items().filter((item) => item.kind === 'note');
    fake.control.notAuthor.add(refused!.key);
    const connector = connect(fake);
    const text = (await connector.fetch(refOf(refused!))).markdown;
    expect(text).toContain(refused!.title);
    expect(text).not.toMatch(/^#|```/m);
    // The next note is still asked for Markdown: one refusal does not switch the connection to text.
    expect((await connector.fetch(refOf(exported!))).markdown).toBe(exported!.markdown);
    const noteCalls = fake.control.requests.filter((r) => r.includes('/openapi/note/v1/'));
    expect(noteCalls.slice(-3)).toEqual([
      'POST /openapi/note/v1/export_note',
      'POST /openapi/note/v1/get_doc_content',
      'POST /openapi/note/v1/export_note',
    ]);
  });

  it('searches each knowledge base with snippets from highlight_content, up to the limit', async () => {
    const connector = connect(fake);
    const hits = await connector.search('要点', { limit: 100 });
    const expected = fake.control.items().filter((item) => item.markdown?.includes('要点'));
    expect(
      sorted(hits).map((hit) => ({ externalId: hit.externalId, knowledgeBase: hit.knowledgeBase })),
    ).toEqual(
      sorted(expected).map((item) => ({ externalId: item.externalId, knowledgeBase: item.knowledgeBase })),
    );
    expect(new Set(hits.map((hit) => hit.knowledgeBase)).size).toBe(3);
    expect(hits.every((hit) => hit.snippet.includes('要点') && !hit.snippet.includes('<em>'))).toBe(true);
    expect(await connector.search('要点', { limit: 3 })).toHaveLength(3);
    const titleOnly = await connector.search('.md', { limit: 5 });
    expect(titleOnly.length).toBeGreaterThan(0);
    expect(titleOnly.every((hit) => hit.title.endsWith('.md') && hit.snippet === '')).toBe(true);
  });

  it('the fake refuses a knowledge-base page above 20 with code 51', async () => {
    const res = await fetch(`${fake.baseUrl}/openapi/wiki/v1/search_knowledge_base`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'ima-openapi-clientid': fake.credentials.clientId!,
        'ima-openapi-apikey': fake.credentials.apiKey!,
      },
      body: JSON.stringify({ query: '', cursor: '', limit: 21 }),
    });
    expect(await res.json()).toMatchObject({ code: 51 });
  });
});

describe('ImaConnector: the skill-version header (#28 item 8)', () => {
  afterEach(() => {
    fake.control.requireSkillVersion = null;
  });

  it('sends no ima-openapi-ctx while IMA does not ask for it', async () => {
    const start = fake.control.contexts.length;
    expect(sorted(await listAll(connect(fake)))).toEqual(expectedRefs(fake));
    expect(new Set(fake.control.contexts.slice(start))).toEqual(new Set(['']));
  });

  it('when IMA answers "client too old", names IMA_SKILL_VERSION from then on', async () => {
    fake.control.requireSkillVersion = '1.1.0';
    const start = fake.control.contexts.length;
    const connector = connect(fake);
    expect(await connector.validate()).toMatchObject({ code: 'connection.imaOk' });
    expect(sorted(await listAll(connector))).toEqual(expectedRefs(fake));
    const contexts = fake.control.contexts.slice(start);
    // One refused call, asked again with the header; every later call carries it.
    expect(contexts[0]).toBe('');
    expect(new Set(contexts.slice(1))).toEqual(new Set([`skill_version=${IMA_SKILL_VERSION}`]));
  });

  it('when IMA still says the client is too old, says so (not a generic UNSUPPORTED), for the card and cairn test', async () => {
    fake.control.requireSkillVersion = '99.0';
    const error = await failure(connect(fake).validate());
    expect(error).toMatchObject({
      code: 'UNSUPPORTED',
      details: { reason: 'ima.client-too-old', params: { version: IMA_SKILL_VERSION } },
    });
    expect(error.message).toBe(
      `IMA says this client is too old for its OpenAPI (IMA code -200: please upgrade the skill to the latest version). Cairn named IMA skill version ${IMA_SKILL_VERSION} and IMA still asks for a newer client: update Cairn.`,
    );
  });
});

describe('ImaConnector: injected faults', () => {
  it('backs off and retries on rate limiting (HTTP 403 请求频率超限, or 110021 on HTTP 200)', async () => {
    fake.control.inject({ kind: 'rate-limit', times: 2, match: 'get_knowledge_list' });
    fake.control.inject({ kind: 'rate-limit', code: 110021, status: 200, match: 'get_knowledge_list' });
    expect(sorted(await listAll(connect(fake)))).toEqual(expectedRefs(fake));
    fake.control.inject({ kind: 'rate-limit', times: 10 });
    await expect(connect(fake, { http: { maxRetries: 2 } }).validate()).rejects.toMatchObject({
      code: 'RATE_LIMITED',
    });
  });

  it.each([
    [200005, 403],
    [200005, 200],
    [220021, 200],
  ])(
    "treats quota code %i on HTTP %i as the day's quota (QUOTA_EXCEEDED: the sync defers the rest), then fails fast without calling IMA",
    async (code, status) => {
      const connector = connect(fake);
      const note = itemOfKind(fake, 'note');
      fake.control.inject({ kind: 'quota', code, status, match: 'get_media_info' });
      await expect(connector.fetch(refOf(note))).rejects.toMatchObject({
        code: 'QUOTA_EXCEEDED',
        message: expect.stringMatching(/daily request quota is used up/),
      });
      const before = fake.control.requests.length;
      await expect(connector.fetch(refOf(note))).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED' });
      expect(fake.control.requests.length).toBe(before);
    },
  );

  it('retries 500s and malformed JSON, and gives up with SOURCE_ERROR when they persist', async () => {
    fake.control.inject({ kind: 'server-error', times: 2, match: 'get_knowledge_list' });
    fake.control.inject({ kind: 'malformed-json', times: 2, match: 'search_knowledge_base' });
    expect(sorted(await listAll(connect(fake)))).toEqual(expectedRefs(fake));
    fake.control.inject({ kind: 'malformed-json', times: 10 });
    await expect(connect(fake, { http: { maxRetries: 1 } }).validate()).rejects.toMatchObject({
      code: 'SOURCE_ERROR',
    });
  });

  it('tolerates a slow answer within the timeout and reports TIMEOUT beyond it', async () => {
    fake.control.inject({ kind: 'slow', delayMs: 150, match: 'search_knowledge_base' });
    await connect(fake).validate();
    fake.control.inject({ kind: 'slow', delayMs: 2000, match: 'search_knowledge_base' });
    await expect(connect(fake, { http: { timeoutMs: 200 } }).validate()).rejects.toMatchObject({
      code: 'TIMEOUT',
    });
  });

  it('reports NOT_FOUND for an item deleted after listing; others still fetch', async () => {
    const connector = connect(fake);
    const [gone, kept] = fake.control
      .items()
      .filter((item) => item.kind === 'note')
      .slice(-2); // the last two: other tests use the first
    fake.control.vanish(gone!.key);
    await expect(connector.fetch(refOf(gone!))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await connector.fetch(refOf(kept!))).markdown).toBe(kept!.markdown);
  });

  it('sees changed, deleted and added items on the next listing', async () => {
    const target = await startImaFake({ documents: 6, spaces: 2 });
    try {
      const connector = connect(target);
      const before = await listAll(connector);
      const changed = target.control.changeDocument('doc-0001', '# 改过的笔记\n\nChanged.\n');
      target.control.deleteDocument('doc-0002');
      const added = target.control.addDocument({ space: 1, folder: ['Runbooks'] });
      const after = new Map((await listAll(connector)).map((ref) => [ref.externalId, ref]));
      const items = new Map(target.control.items().map((item) => [item.key, item]));
      expect({
        before: before.length,
        after: after.size,
        addedListed: after.has(items.get(added.key)!.externalId),
      }).toEqual({ before: 8, after: 8, addedListed: true });
      expect((await connector.fetch(after.get(items.get('doc-0001')!.externalId)!)).markdown).toBe(
        changed.markdown,
      );
    } finally {
      await target.close();
    }
  });
});

describe('ImaConnector: secrets', () => {
  it('never writes the API key or a download signature to the log or an error', async () => {
    const lines: string[] = [];
    const logger = createLogger({ sink: (line) => lines.push(line), level: 'debug' });
    const errors: string[] = [];
    const connector = connect(fake, { logger });
    fake.control.inject({ kind: 'rate-limit', times: 2 });
    fake.control.inject({ kind: 'server-error', times: 2, match: '/cos/' });
    fake.control.notAuthor.add(itemOfKind(fake, 'note').key);
    await listAll(connector);
    for (const kind of ['note', 'markdown-file', 'pdf'] as const)
      await connector
        .fetch(refOf(itemOfKind(fake, kind)))
        .catch((error: Error) => errors.push(error.message));
    await connector.search('要点', { limit: 3 });
    await connect(fake, { logger, secrets: { apiKey: 'wrong-api-key-000' } })
      .validate()
      .catch((error: Error) => errors.push(error.message));
    expect(lines.length).toBeGreaterThan(3);
    const written = [...lines, ...errors].join('\n');
    expect(written.includes(fake.credentials.apiKey!)).toBe(false);
    expect(written).not.toMatch(/sign=|x-ima-cos-sign/);
  });
});
