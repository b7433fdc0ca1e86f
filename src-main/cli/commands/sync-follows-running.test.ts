/**
 * `cairn sync <connection>` while a sync of it is already running (the app's or `cairn serve`'s
 * scheduler started it, e.g. right after `cairn add-folder`): the command reports that run instead
 * of failing with ALREADY_SYNCING, in this process and through the instance socket.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionView } from '@shared/models';
import { createCairn, type CairnInternals } from '../../core/app/create-cairn';
import type { Connector, ConnectorFactory } from '../../core/connectors/connector';
import { defaultConnectorFactories } from '../../core/connectors/registry';
import { runCli } from '../../testing/run-cli';
import { serveOverSocket, type SocketServed } from '../../testing/socket-kit';
import type { SyncRunReport } from './sync';

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

/**
 * A folder connector whose listing, once `held.gate` is set, waits until the test opens it: the
 * sync stays running. (Adding the folder lists it too, before the gate is set.)
 */
function gatedFolders(held: { gate: Promise<void> | null }): ConnectorFactory {
  return (init) => {
    const real = defaultConnectorFactories().folder!(init);
    return Object.assign(Object.create(real) as Connector, {
      async *list(signal?: AbortSignal, report?: Parameters<Connector['list']>[1]) {
        if (held.gate) await held.gate;
        yield* real.list(signal, report);
      },
    });
  };
}

describe.each(['in-process', 'socket'] as const)('cairn sync beside a running sync (%s)', (transport) => {
  it('follows the running sync of the connection and reports it', async () => {
    let open = () => {};
    const held: { gate: Promise<void> | null } = { gate: null };
    const cairn: CairnInternals = await createCairn({
      scheduler: false,
      env: {},
      factories: { ...defaultConnectorFactories(), folder: gatedFolders(held) },
    });
    const base = await mkdtemp(join(tmpdir(), 'cairn-sync-follow-'));
    cleanups.push(async () => {
      await cairn.dispose();
      await rm(base, { recursive: true, force: true });
    });
    const socket: SocketServed | null = transport === 'socket' ? await serveOverSocket(cairn) : null;
    if (socket) cleanups.push(() => socket.close());
    const cli = (argv: string[]) => runCli(argv, { cairn, ...(socket ? { connect: socket.open } : {}) });

    const notes = join(base, 'notes');
    await mkdir(notes, { recursive: true });
    await writeFile(join(notes, 'leave.md'), '# 请假\n\n年假需提前三天申请。\n');
    const added = await cli(['add-folder', notes, '--json']);
    const connection = (JSON.parse(added.stdout) as { value: ConnectionView }).value;
    // Another sync of it is running (as the scheduler's would be), held at its listing.
    held.gate = new Promise<void>((resolve) => (open = resolve));
    const first = await cairn.api.sync.start({ connectionId: connection.id });
    expect(first.ok).toBe(true);

    const synced = cli(['sync', 'notes', '--json']);
    // Refused, the command would answer at once; following, it waits on the held run. Either way
    // it has asked within these seconds, and only then is the held run let go.
    await Promise.race([synced, new Promise((resolve) => setTimeout(resolve, 3_000))]);
    open();
    const result = await synced;
    const runs = (JSON.parse(result.stdout) as { value: { runs: SyncRunReport[] } }).value.runs;
    expect({
      code: result.code,
      runs: runs.map((run) => ({ status: run.status, id: run.id, name: run.name })),
      stderr: result.stderr,
    }).toEqual({
      code: 0,
      runs: [{ status: 'succeeded', id: first.ok ? first.value.runId : -1, name: 'notes' }],
      stderr: '',
    });
  }, 120_000);
});
