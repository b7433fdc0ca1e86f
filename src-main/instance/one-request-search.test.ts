/**
 * A search through a running instance is one request, whatever its filters name: `cairn search`
 * and the MCP search tool send the names as typed (connection, platform, knowledge base) and core
 * resolves them, names the connections in its answer and words the "was not searched" sentence.
 * The instance counts what reaches it over its socket.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CairnApi } from '@shared/contract';
import type { SearchResponse } from '@shared/models';
import { createCairn } from '../core/app/create-cairn';
import { silentLogger } from '../core/logging/logger';
import { CairnAccess } from '../mcp/cairn-access';
import { createCairnMcpServer } from '../mcp/mcp-server';
import { runCli } from '../testing/run-cli';
import { openInstance, openPrimary } from './open-instance';
import type { CairnSession } from './session';

let dir: string;
let notes: string;
let primary: CairnSession;
/** Every contract call the instance answered for a client over its socket, by channel. */
const requests: string[] = [];

/** The contract, with each call recorded as `domain.method`. */
function counted(api: CairnApi): CairnApi {
  return Object.fromEntries(
    Object.entries(api).map(([domain, methods]) => [
      domain,
      Object.fromEntries(
        Object.entries(methods as Record<string, (input: unknown) => unknown>).map(([method, call]) => [
          method,
          (input: unknown) => {
            requests.push(`${domain}.${method}`);
            return call(input);
          },
        ]),
      ),
    ]),
  ) as unknown as CairnApi;
}

/** A client of the running instance, as `cairn search` or `cairn mcp` gets one. */
function client(): Promise<CairnSession> {
  return openInstance({
    dataDir: dir,
    kind: 'cli',
    version: '0.1.0',
    openHere: () => Promise.reject(new Error('the instance should answer')),
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-one-request-'));
  notes = await mkdtemp(join(tmpdir(), 'cairn-one-request-notes-'));
  for (const [folder, name, text] of [
    ['work', 'plan.md', '# Launch plan\n\nThe launch plan for the spring release.\n'],
    ['work', 'budget.md', '# Budget\n\nThe launch budget.\n'],
    ['家庭', 'trip.md', '# Trip plan\n\nThe launch plan for the trip.\n'],
  ] as const) {
    await mkdir(join(notes, folder), { recursive: true });
    await writeFile(join(notes, folder, name), text);
  }
  // The instance serves its clients through the counted contract (the socket host asks for it per call).
  primary = await openPrimary({
    dataDir: dir,
    kind: 'serve',
    version: '0.1.0',
    patienceMs: 60_000,
    openHere: async () => {
      const cairn = await createCairn({ dataDir: dir, env: {}, scheduler: false, logger: silentLogger() });
      return { ...cairn, cancellable: (signal: AbortSignal) => counted(cairn.cancellable(signal)) };
    },
  });
  for (const folder of ['work', '家庭'])
    expect((await runCli(['add-folder', join(notes, folder)], { cairn: primary })).code).toBe(0);
  expect((await runCli(['sync'], { cairn: primary })).code).toBe(0);
}, 300_000);

afterAll(async () => {
  await primary?.dispose();
  await rm(dir, { recursive: true, force: true });
  await rm(notes, { recursive: true, force: true });
});

describe('a search through a running instance', () => {
  it('is one request from cairn search, with a knowledge base, a connection and a platform named', async () => {
    requests.length = 0;
    const run = await runCli(
      ['search', 'launch plan', '--kb', 'WORK', '--connection', 'work', '--platform', 'folder', '--json'],
      { connect: client },
    );
    expect(run.code).toBe(0);
    const response = (JSON.parse(run.stdout) as { value: SearchResponse }).value;
    expect({
      requests,
      titles: response.documents.map((d) => d.best.title).sort(),
      names: Object.values(response.connectionNamesById ?? {}),
    }).toEqual({ requests: ['search.query'], titles: ['Budget', 'Launch plan'], names: ['work'] });

    // A name that matches nothing is refused by that same one request.
    requests.length = 0;
    const refused = await runCli(['search', 'launch plan', '--kb', 'nope'], { connect: client });
    expect({ requests, code: refused.code, stderr: refused.stderr }).toEqual({
      requests: ['search.query'],
      code: refused.code,
      stderr: 'cairn: No knowledge base named "nope". Knowledge bases: "work", "家庭". (NOT_FOUND)\n',
    });
    expect(refused.code).toBeGreaterThan(0);
  });

  it('is one request from the MCP search tool, with a knowledge base named', async () => {
    const access = new CairnAccess({ connect: client });
    const server = createCairnMcpServer(access, '0.1.0');
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const mcp = new Client({ name: 'one-request-test', version: '1.0.0' });
    await mcp.connect(clientSide);
    try {
      requests.length = 0;
      const result = await mcp.callTool({
        name: 'search',
        arguments: { query: 'launch plan', knowledge_base: '家庭' },
      });
      const structured = result.structuredContent as {
        results: { title: string; connection: string; knowledge_base: string }[];
      };
      expect({
        requests,
        results: structured.results.map((r) => [r.title, r.connection, r.knowledge_base]),
      }).toEqual({
        requests: ['search.query'],
        results: [['Trip plan', '家庭', '家庭']],
      });
    } finally {
      await mcp.close();
      await server.close();
      await access.dispose();
    }
  });
});
