/**
 * The Settings "Test": core starts `cairn mcp` exactly as the pasted configuration says (npx from
 * this checkout, with the data directory), through the official MCP client, and that process is
 * answered by this running instance over its socket.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPrimary } from '../../instance/open-instance';
import type { CairnSession } from '../../instance/session';
import { syncToEnd, unwrap } from '../../testing/integration-kit';
import { silentLogger } from '../logging/logger';
import { createCairn, type CairnInternals } from './create-cairn';

let scratch: string;
let session: CairnSession;
let cairn: CairnInternals;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'cairn-mcp-api-'));
  const notes = join(scratch, 'notes');
  await mkdir(notes, { recursive: true });
  await writeFile(join(notes, '报销.md'), '# 报销流程\n\n报销需要发票原件。\n');
  const dataDir = join(scratch, 'data');
  session = await openPrimary({
    dataDir,
    kind: 'serve',
    version: '0.1.0',
    openHere: async () =>
      (cairn = await createCairn({ dataDir, env: {}, scheduler: false, logger: silentLogger() })),
  });
  const added = unwrap(
    await session.api.connections.add({
      platform: 'folder',
      name: 'notes',
      mode: 'rag',
      config: { path: notes },
      secrets: {},
    }),
  );
  await syncToEnd(cairn, added.id);
}, 300_000);

afterAll(async () => {
  await session?.dispose();
  await rm(scratch, { recursive: true, force: true });
});

describe('mcp.setup and mcp.test', () => {
  it(
    'gives a configuration naming this data directory, and its Test searches through a real cairn mcp',
    { timeout: 300_000 },
    async () => {
      const setup = unwrap(await session.api.mcp.setup());
      const report = unwrap(await session.api.mcp.test({}));
      expect({
        command: setup.command,
        args: setup.args.slice(2),
        json: JSON.parse(setup.json) as unknown,
        report: { ...report, tookMs: typeof report.tookMs },
      }).toEqual({
        command: 'npx',
        args: ['cairn', '--data-dir', join(scratch, 'data'), 'mcp'],
        json: { mcpServers: { cairn: { command: 'npx', args: setup.args } } },
        report: {
          tools: ['search', 'fetch', 'list_sources', 'ask'],
          query: '报销流程',
          results: 1,
          firstTitle: '报销流程',
          tookMs: 'number',
        },
      });
    },
  );

  it('says so when there is no data directory to reach', async () => {
    const memory = await createCairn({ env: {}, scheduler: false, logger: silentLogger() });
    try {
      const result = await memory.api.mcp.test({ query: 'x' });
      expect(result.ok ? 'ok' : result.error.code).toBe('UNSUPPORTED');
    } finally {
      await memory.dispose();
    }
  });
});
