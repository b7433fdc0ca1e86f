import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliContext } from '../command';
import { runServe } from './serve';

function context(): CliContext & { out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (part: Buffer) => (out += part.toString()));
  stderr.on('data', (part: Buffer) => (err += part.toString()));
  return { stdout, stderr, env: {}, signal: new AbortController().signal, open: () => Promise.reject(new Error('not used with --demo')), out: () => out, err: () => err };
}

describe('cairn serve', () => {
  it('rejects bad arguments with exit code 2', async () => {
    const io = context();
    const codes = [await runServe(['--port', 'eighty'], io, { stop: AbortSignal.abort() }), await runServe(['--colour'], io, { stop: AbortSignal.abort() })];
    expect(codes).toEqual([2, 2]);
    expect(io.err()).toContain('usage: cairn serve');
  });

  it('prints a working address with the token, opens it with --open, and stops cleanly', async () => {
    const io = context();
    const controller = new AbortController();
    const opened: string[] = [];
    const running = runServe(['--demo', '--open'], io, { stop: controller.signal, rendererDir: '/nonexistent', openBrowser: async (url) => void opened.push(url) });
    while (!io.out().includes('Ctrl+C')) await new Promise((resolve) => setTimeout(resolve, 10));
    const url = new URL(/Cairn is running at (\S+)/.exec(io.out())![1]!);
    const status = await fetch(`${url.origin}/api/app.status`, { method: 'POST', headers: { 'x-cairn-token': url.searchParams.get('token')! } });
    expect(((await status.json()) as { ok: boolean }).ok).toBe(true);
    expect(opened).toEqual([url.toString()]);
    expect(io.out()).toContain('run `npm run build`');
    controller.abort();
    expect(await running).toBe(0);
  });
});
