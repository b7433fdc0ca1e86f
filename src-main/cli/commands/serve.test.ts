import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createCairn } from '../../core/app/create-cairn';
import { silentLogger } from '../../core/logging/logger';
import type { CliContext } from '../command';
import { runServe } from './serve';

interface ServeIo extends CliContext {
  out: () => string;
  err: () => string;
  /** What serve asked `open` for, and whether it disposed the Cairn it got. */
  opens: { scheduler?: boolean; role?: string }[];
  disposed: () => boolean;
}

/** A CLI context whose `open` builds the real core in memory (no data directory is touched). */
function context(): ServeIo {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  let disposed = false;
  const opens: { scheduler?: boolean; role?: string }[] = [];
  stdout.on('data', (part: Buffer) => (out += part.toString()));
  stderr.on('data', (part: Buffer) => (err += part.toString()));
  async function open(options: { scheduler?: boolean; role?: 'client' | 'serve' } = {}) {
    opens.push(options);
    const cairn = await createCairn({
      scheduler: options.scheduler ?? false,
      env: {},
      logger: silentLogger(),
    });
    return {
      ...cairn,
      dispose: async () => {
        disposed = true;
        await cairn.dispose();
      },
    };
  }
  return {
    stdout,
    stderr,
    env: {},
    signal: new AbortController().signal,
    connect: () => Promise.reject(new Error('cairn serve never reconnects')),
    dataDirPath: () => ':memory:',
    open,
    out: () => out,
    err: () => err,
    opens,
    disposed: () => disposed,
  };
}

describe('cairn serve', () => {
  it('rejects bad arguments with exit code 2 before opening anything', async () => {
    const io = context();
    const codes = [
      await runServe(['--port', 'eighty'], io, { stop: AbortSignal.abort() }),
      await runServe(['--colour'], io, { stop: AbortSignal.abort() }),
      await runServe(['--demo'], io, { stop: AbortSignal.abort() }),
    ];
    expect(codes).toEqual([2, 2, 2]);
    expect(io.err()).toContain('usage: cairn serve');
    expect(io.opens).toEqual([]);
  });

  it('prints a working address with the token, opens it with --open, and stops cleanly', async () => {
    const io = context();
    const controller = new AbortController();
    const opened: string[] = [];
    const running = runServe(['--open'], io, {
      stop: controller.signal,
      rendererDir: '/nonexistent',
      openBrowser: async (url) => void opened.push(url),
    });
    while (!io.out().includes('Ctrl+C')) await new Promise((resolve) => setTimeout(resolve, 10));
    const url = new URL(/Cairn is running at (\S+)/.exec(io.out())![1]!);
    const status = await fetch(`${url.origin}/api/app.status`, {
      method: 'POST',
      headers: { 'x-cairn-token': url.searchParams.get('token')! },
    });
    expect((await status.json()) as unknown).toMatchObject({ ok: true, value: { connections: [] } });
    expect(opened).toEqual([url.toString()]);
    expect(io.opens).toEqual([{ scheduler: true, role: 'serve' }]);
    expect(io.out()).toContain('run `npm run build`');
    controller.abort();
    expect(await running).toBe(0);
    expect(io.disposed()).toBe(true);
  });
});
