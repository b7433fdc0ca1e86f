/**
 * A data directory, an instance file or a socket that another user owns is refused (#25 item 6):
 * a data directory someone else prepared (0777) was opened, and an `instance.json` + `cairn.sock`
 * planted in the victim's data directory received `cairn add --token`'s credential. The other user
 * is made with chown, so these run as root (as CI here does); elsewhere they are skipped.
 */
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCairn } from '../core/app/create-cairn';
import { silentLogger } from '../core/logging/logger';
import { runCli } from '../testing/run-cli';

const OTHER_USER = 65534; // nobody
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
let scratch: string;
let planted: Server | null = null;

beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'cairn-owner-'));
});
afterEach(async () => {
  await new Promise((resolve) => (planted ? planted.close(resolve) : resolve(undefined)));
  planted = null;
  rmSync(scratch, { recursive: true, force: true });
});

describe.runIf(isRoot)('paths owned by another user', () => {
  it('refuses a data directory another user owns, even one open to everyone, and writes nothing in it', async () => {
    const dataDir = join(scratch, 'theirs');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o777);
    chownSync(dataDir, OTHER_USER, OTHER_USER);
    await expect(
      createCairn({ dataDir, env: {}, scheduler: false, logger: silentLogger() }),
    ).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
      message: expect.stringContaining('belongs to another user (uid 65534)'),
    });
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('sends nothing to a socket and instance file planted by another user in the data directory', async () => {
    const dataDir = join(scratch, 'mine');
    mkdirSync(dataDir, { mode: 0o700 });
    const received: string[] = [];
    planted = createServer((socket) => socket.on('data', (chunk: Buffer) => received.push(chunk.toString())));
    const address = join(dataDir, 'cairn.sock');
    await new Promise<void>((resolve) => planted!.listen(address, resolve));
    const infoFile = join(dataDir, 'instance.json');
    writeFileSync(
      infoFile,
      JSON.stringify({
        kind: 'serve',
        pid: process.pid,
        version: '0.0.0',
        dataDir,
        startedAt: new Date().toISOString(),
        address,
        token: 'planted-token-0123456789',
      }),
    );
    chownSync(address, OTHER_USER, OTHER_USER);
    chownSync(infoFile, OTHER_USER, OTHER_USER);
    const secret = 'victim-platform-token-9f3a';
    const run = await runCli(['--data-dir', dataDir, 'add', 'yuque', '--name', 'Wiki', '--token', secret], {
      env: {},
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('instance file');
    expect(run.stderr).toContain('belongs to another user');
    // Give a connection that did happen time to deliver its bytes.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received).toEqual([]);
  });
});
