/**
 * A damaged database is refused, never re-created over (issue #25 item 1): a data directory whose
 * database lost PG_VERSION, and one whose pg_control is corrupt, are refused with a message naming
 * the folder, and nothing in them changes (every file's mode and hash before and after); the two
 * ways on work end to end: rebuild (the CLI: connections back with their secrets, the folder synced
 * again, found by search) and fresh (the app's path: empty, the old database and manifest kept aside).
 * A database that is simply gone comes back with its connections from the manifest.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  closeSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
  mkdtempSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../logging/logger';
import { runCli } from '../../testing/run-cli';
import { treeDigest } from '../../testing/tree-digest';
import { createCairn } from './create-cairn';
import { dataDirLayout } from './data-dir';
import { openRecoverableCairn } from './recoverable-cairn';

const TOKEN = 'yuque-token-that-must-survive-1234';
const scratch = mkdtempSync(join(tmpdir(), 'cairn-damaged-'));
/** The data directory every case starts from a copy of. */
const original = join(scratch, 'original');
const notes = join(scratch, 'notes');
let ids: { folder: string; wiki: string };

function open(dataDir: string) {
  return createCairn({ dataDir, env: {}, scheduler: false, logger: silentLogger() });
}

/** A copy of the original data directory, as the user's own would be. */
function copyOfOriginal(name: string): string {
  const copy = join(scratch, name);
  cpSync(original, copy, { recursive: true });
  return copy;
}

beforeAll(async () => {
  mkdirSync(notes);
  writeFileSync(join(notes, 'vpn.md'), '# VPN\n\nThe office VPN uses the marmot gateway on port 4433.\n');
  writeFileSync(join(notes, '报销.md'), '# 报销流程\n\n差旅报销需要在三十天内提交发票。\n');
  const cairn = await open(original);
  const folder = await cairn.api.connections.add({
    platform: 'folder',
    name: 'Notes',
    mode: 'rag',
    config: { path: notes },
    secrets: {},
  });
  const wiki = await cairn.api.connections.add({
    platform: 'yuque',
    name: 'Team wiki',
    mode: 'direct',
    config: { baseUrl: 'http://127.0.0.1:9' },
    secrets: { token: TOKEN },
  });
  if (!folder.ok || !wiki.ok)
    throw new Error(`could not add the connections: ${JSON.stringify([folder, wiki])}`);
  ids = { folder: folder.value.id, wiki: wiki.value.id };
  await cairn.api.sync.start({ connectionId: ids.folder });
  await cairn.whenIdle();
  await cairn.dispose();
}, 180_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** What the refusal of `dataDir` looks like, and whether anything but the logs changed meanwhile. */
async function refusalOf(dataDir: string) {
  const before = treeDigest(dataDir, ['logs']);
  const refused = await open(dataDir).then(
    async (cairn) => {
      await cairn.dispose();
      return null;
    },
    (error: unknown) => error as { code: string; message: string; details: Record<string, unknown> },
  );
  const cli = await runCli(['--data-dir', dataDir, 'status']);
  return {
    code: refused?.code,
    namesFolder: refused?.message.includes(dataDirLayout(dataDir).database),
    reason: refused?.details['reason'],
    offers: ['cairn recover --rebuild', 'cairn recover --fresh'].every((offer) =>
      refused?.message.includes(offer),
    ),
    cli: { code: cli.code, saysIt: cli.stderr.includes(`${dataDirLayout(dataDir).database}`) },
    unchanged: JSON.stringify(treeDigest(dataDir, ['logs'])) === JSON.stringify(before),
    lockLeft: existsSync(dataDirLayout(dataDir).lock),
  };
}

describe('a damaged database', () => {
  it('keeps a manifest of connections and settings outside the database, without secrets', () => {
    const text = readFileSync(dataDirLayout(original).manifest, 'utf8');
    const manifest = JSON.parse(text) as {
      connections: { id: string; name: string; secretRef: string | null }[];
    };
    expect({
      connections: manifest.connections.map((c) => [c.id, c.name, c.secretRef !== null]),
      secretInside: text.includes(TOKEN),
    }).toEqual({
      connections: [
        [ids.folder, 'Notes', false],
        [ids.wiki, 'Team wiki', true],
      ],
      secretInside: false,
    });
  });

  it('without PG_VERSION is refused, unchanged, and rebuilt by `cairn recover --rebuild` with connections and secrets', async () => {
    const dataDir = copyOfOriginal('no-pg-version');
    rmSync(join(dataDirLayout(dataDir).database, 'PG_VERSION'));
    expect(await refusalOf(dataDir)).toEqual({
      code: 'DATA_DIR_DAMAGED',
      namesFolder: true,
      reason: 'PG_VERSION is missing',
      offers: true,
      cli: { code: 1, saysIt: true },
      unchanged: true,
      lockLeft: false,
    });

    const recovered = await runCli(['--data-dir', dataDir, 'recover', '--rebuild']);
    const cairn = await open(dataDir);
    const views = await cairn.api.connections.list();
    const found = await cairn.api.search.query({ query: 'marmot gateway', connectionIds: [ids.folder] });
    await cairn.dispose();
    const aside = /Moved the damaged database to (\S+);/.exec(recovered.stdout)?.[1] ?? '';
    expect({
      code: recovered.code,
      restored: recovered.stdout.includes('restored 2 connections from manifest.json'),
      synced: /Notes: succeeded/.test(recovered.stdout),
      connections: views.ok ? views.value.map((v) => [v.id, v.name, v.secretFields]) : views.error,
      found: found.ok ? found.value.documents.map((d) => d.best.title) : found.error,
      keptAside: existsSync(join(aside, 'db', 'base')) && !existsSync(join(aside, 'db', 'PG_VERSION')),
    }).toEqual({
      code: 0,
      restored: true,
      synced: true,
      connections: [
        [ids.folder, 'Notes', []],
        [ids.wiki, 'Team wiki', ['token']],
      ],
      found: ['VPN'],
      keptAside: true,
    });
  });

  it('with a corrupt pg_control is refused, unchanged, and the app offers a fresh start that keeps the old one aside', async () => {
    const dataDir = copyOfOriginal('bad-control');
    const control = openSync(join(dataDirLayout(dataDir).database, 'global', 'pg_control'), 'r+');
    writeSync(control, Buffer.from('not a control file'), 0, 18, 40);
    closeSync(control);
    expect(await refusalOf(dataDir)).toEqual({
      code: 'DATA_DIR_DAMAGED',
      namesFolder: true,
      reason: 'the database would not start (incorrect checksum in control file)',
      offers: true,
      cli: { code: 1, saysIt: true },
      unchanged: true,
      lockLeft: false,
    });

    // The app's way: it stays up holding the refusal, and every call answers with it until a choice.
    const app = await openRecoverableCairn({ dataDir, open: () => open(dataDir), logger: silentLogger() });
    const refusedStatus = await app.api.app.status();
    const refusedSearch = await app.api.search.query({ query: 'VPN' });
    const recovered = await app.api.app.recover({ action: 'fresh' });
    const status = await app.api.app.status();
    const again = await app.api.app.recover({ action: 'fresh' });
    await app.dispose();
    const aside = recovered.ok ? recovered.value.movedTo : '';
    expect({
      refusedStatus: refusedStatus.ok ? 'opened' : refusedStatus.error.code,
      refusedSearch: refusedSearch.ok ? 'answered' : refusedSearch.error.code,
      recovered: recovered.ok
        ? { action: recovered.value.action, connections: recovered.value.connections }
        : recovered.error,
      connections: status.ok ? status.value.connections.length : status.error,
      again: again.ok ? 'recovered twice' : again.error.code,
      keptAside: [
        existsSync(join(aside, 'db', 'global', 'pg_control')),
        existsSync(join(aside, 'manifest.json')),
      ],
    }).toEqual({
      refusedStatus: 'DATA_DIR_DAMAGED',
      refusedSearch: 'DATA_DIR_DAMAGED',
      recovered: { action: 'fresh', connections: 0 },
      connections: 0,
      again: 'INVALID_ARGUMENT',
      keptAside: [true, true],
    });
  });

  // Two databases are created (about 30 s each at a load of 30 on two cores).
  it(
    'that is gone comes back with the connections of the manifest, and one left half-created is made again',
    { timeout: 240_000 },
    async () => {
      const lost = copyOfOriginal('lost');
      rmSync(dataDirLayout(lost).database, { recursive: true });
      const half = copyOfOriginal('half');
      const database = dataDirLayout(half).database;
      rmSync(database, { recursive: true });
      mkdirSync(join(database, 'base'), { recursive: true });
      writeFileSync(join(database, 'base', 'partial'), 'left by a crash during creation');
      writeFileSync(`${database}.creating`, 'interrupted');
      const names = async (dataDir: string) => {
        const cairn = await open(dataDir);
        const views = await cairn.api.connections.list();
        await cairn.dispose();
        return views.ok ? views.value.map((v) => [v.name, v.secretFields, v.lastSyncAt]) : views.error;
      };
      const expected = [
        ['Notes', [], null],
        ['Team wiki', ['token'], null],
      ];
      expect({
        lost: await names(lost),
        half: await names(half),
        marker: existsSync(`${database}.creating`),
      }).toEqual({
        lost: expected,
        half: expected,
        marker: false,
      });
    },
  );
});
