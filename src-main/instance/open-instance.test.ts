import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCairn } from '../core/app/create-cairn';
import { CairnError } from '../core/errors';
import { silentLogger } from '../core/logging/logger';
import { openInstance, openPrimary, type OpenInstanceOptions } from './open-instance';
import type { CairnSession } from './session';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-open-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function options(kind: OpenInstanceOptions['kind'], extra: Partial<OpenInstanceOptions> = {}) {
  return {
    dataDir: dir,
    kind,
    version: '0.1.0',
    openHere: () => createCairn({ dataDir: dir, env: {}, scheduler: false, logger: silentLogger() }),
    patienceMs: 60_000,
    ...extra,
  } satisfies OpenInstanceOptions;
}

describe('opening the data directory, or the instance that holds it', () => {
  it(
    'the app (or cairn serve) takes the data directory over from a cairn mcp that holds it; a second one is refused',
    { timeout: 240_000 },
    async () => {
      const waits: string[] = [];
      let holder: CairnSession | null = null;
      let yielded = false;
      holder = await openInstance(
        options('mcp', {
          onYield: () => {
            yielded = true;
            setTimeout(() => void holder?.dispose(), 10);
            return true;
          },
        }),
      );
      const client = await openInstance(options('cli'));
      const before = [holder.answeredBy.via, client.answeredBy.via, client.answeredBy.kind];
      await client.dispose();

      const primary = await openPrimary(options('serve', { onWait: (message) => waits.push(message) }));
      try {
        const after = await openInstance(options('cli'));
        const answeredBy = [after.answeredBy.via, after.answeredBy.kind];
        await after.dispose();
        const second = await openPrimary(options('desktop', { patienceMs: 1_000 })).catch(
          (error: unknown) => error,
        );
        expect({
          before,
          yielded,
          waits,
          primary: [primary.answeredBy.via, primary.answeredBy.kind],
          answeredBy,
          second: second instanceof CairnError ? [second.code, second.message] : second,
        }).toEqual({
          before: ['in-process', 'socket', 'mcp'],
          yielded: true,
          waits: [`Waiting for cairn mcp (pid ${process.pid}) to hand over the data directory ${dir}…`],
          primary: ['in-process', 'serve'],
          answeredBy: ['socket', 'serve'],
          second: [
            'DATA_DIR_LOCKED',
            `Cairn is already running on ${dir}: cairn serve (pid ${process.pid}). Use it, or stop it first.`,
          ],
        });
      } finally {
        await primary.dispose();
      }
    },
  );
});
