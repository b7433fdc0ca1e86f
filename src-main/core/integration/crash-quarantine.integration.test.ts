/**
 * A file that kills Cairn while it is read is not read again in a loop (#25 item 0). A real child
 * process syncs a watched-folder-sized folder through the composition root; its connector dies
 * (SIGKILL: what V8 does when a reader runs it out of memory, no handler runs) on reading one
 * file. The first crash makes the files in hand suspects; the next run reads them first, alone, and
 * dies again on that file; the start after that quarantines it, names it in the run and in
 * `cairn status`, and indexes everything else. Later runs leave it alone until it changes.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncRunView } from '@shared/models';
import { createCairn } from '../app/create-cairn';
import { silentLogger } from '../logging/logger';
import { runCli } from '../../testing/run-cli';
import { unwrap } from '../../testing/integration-kit';

const CHILD = fileURLToPath(new URL('../../testing/poison-sync-child.ts', import.meta.url));
const MARKER = 'zzpoisonzz';

let scratch: string;
let notes: string;
let dataDir: string;
let connectionId: string;

function runChild(): Promise<{
  code: number | null;
  signal: NodeJS.Signals | null;
  run: SyncRunView | null;
}> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir, connectionId, MARKER], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stderr = '';
  child.stdout.on('data', (data: Buffer) => void (output += data.toString()));
  child.stderr.on('data', (data: Buffer) => void (stderr += data.toString()));
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      if (code !== 0 && signal === null) console.error(stderr);
      const line = output.trim().split('\n').pop();
      resolve({ code, signal, run: line ? (JSON.parse(line) as SyncRunView) : null });
    }),
  );
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'cairn-quarantine-'));
  notes = join(scratch, 'notes');
  dataDir = join(scratch, 'data');
  mkdirSync(notes);
  for (let i = 0; i < 40; i++)
    writeFileSync(
      join(notes, `note-${String(i).padStart(2, '0')}.md`),
      `# Note ${i}\n\nPlain text number ${i}.\n`,
    );
  writeFileSync(join(notes, 'note-17-poison.md'), `# Poison\n\nReading this ${MARKER} kills the reader.\n`);
  const cairn = await createCairn({ dataDir, env: {}, scheduler: false, logger: silentLogger() });
  connectionId = unwrap(
    await cairn.api.connections.add({
      platform: 'folder',
      name: 'Notes',
      mode: 'rag',
      config: { path: notes, noWatch: true },
      secrets: {},
    }),
  ).id;
  await cairn.dispose();
}, 120_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('a file that kills the process', () => {
  it('is read alone after the first crash, quarantined after the second, and named in the run and `cairn status`', async () => {
    // 1: the poison is read among others and kills the process.
    expect(await runChild()).toMatchObject({ code: null, signal: 'SIGKILL', run: null });
    // 2: the suspects go first, alone; the poison kills it again.
    expect(await runChild()).toMatchObject({ code: null, signal: 'SIGKILL', run: null });
    // 3: no crash: the poison is set aside, everything else is indexed.
    const third = await runChild();
    expect({ code: third.code, signal: third.signal }).toEqual({ code: 0, signal: null });
    expect(third.run).toMatchObject({ status: 'partial', counters: { failed: 1 } });
    expect(third.run!.errors).toEqual([
      expect.objectContaining({
        externalId: 'note-17-poison.md',
        reason: 'sync.quarantined',
        code: 'DOCUMENT_FAILED',
      }),
    ]);
    expect(third.run!.errors[0]!.message).toContain('note-17-poison.md');

    // 4: it stays set aside while unchanged: the run does not die, and says so again.
    const fourth = await runChild();
    expect(fourth).toMatchObject({ code: 0, run: { status: 'partial' } });
    expect(fourth.run!.errors.map((error) => error.reason)).toEqual(['sync.quarantined']);

    const cairn = await createCairn({ dataDir, env: {}, scheduler: false, logger: silentLogger() });
    try {
      const status = await runCli(['status'], { cairn });
      expect(status.code).toBe(0);
      expect(status.stdout).toMatch(/Notes: set aside after Cairn stopped twice.*note-17-poison\.md/);
      const asJson = JSON.parse((await runCli(['status', '--json'], { cairn })).stdout) as {
        value: { quarantined?: Record<string, { externalId: string }[]> };
      };
      expect(asJson.value.quarantined?.[connectionId]?.map((e) => e.externalId)).toEqual([
        'note-17-poison.md',
      ]);
      const [connection] = unwrap(await cairn.api.connections.list());
      expect(connection!.documentCount).toBe(40);
    } finally {
      await cairn.dispose();
    }

    // 5: once the file changes (the user fixed it), it is read again.
    writeFileSync(join(notes, 'note-17-poison.md'), '# Poison\n\nFixed now.\n');
    utimesSync(join(notes, 'note-17-poison.md'), new Date(), new Date(Date.now() + 5_000));
    const fifth = await runChild();
    expect(fifth).toMatchObject({ code: 0, run: { status: 'succeeded', counters: { added: 1, failed: 0 } } });
  }, 600_000);
});
