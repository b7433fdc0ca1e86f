/** The loopback redirect end of a sign-in, over real HTTP on 127.0.0.1. */
import { describe, expect, it } from 'vitest';
import { CairnError } from '../errors';
import { startLoopbackReceiver } from './loopback-receiver';
import { createOAuthState, createPkcePair, s256Challenge } from './pkce';
import { failure } from '../../testing/connector-test-kit';

async function portIsClosed(port: number): Promise<boolean> {
  return fetch(`http://127.0.0.1:${port}/callback`).then(
    () => false,
    () => true,
  );
}

async function page(url: string): Promise<{ status: number; outcome: string | undefined }> {
  const response = await fetch(url);
  return { status: response.status, outcome: /data-outcome="([a-z-]+)"/.exec(await response.text())?.[1] };
}

describe('PKCE', () => {
  it('makes a 43-character base64url verifier whose S256 challenge matches RFC 7636 appendix B', () => {
    const pair = createPkcePair();
    expect([
      pair.verifier.length,
      /^[A-Za-z0-9_-]+$/.test(pair.verifier),
      pair.challenge === s256Challenge(pair.verifier),
      pair.method,
    ]).toEqual([43, true, true, 'S256']);
    expect(s256Challenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
    expect(createOAuthState()).not.toBe(createOAuthState());
  });
});

describe('startLoopbackReceiver', () => {
  it('hands the code with our state to handleCode once, answers the browser after it, and closes the port', async () => {
    const state = createOAuthState();
    const codes: string[] = [];
    const receiver = await startLoopbackReceiver({
      expectedState: state,
      handleCode: async (code) => void codes.push(code),
    });
    expect(receiver.redirectUri).toBe(`http://127.0.0.1:${receiver.port}/callback`);
    expect(await page(`${receiver.redirectUri}?code=forged&state=not-ours`)).toEqual({
      status: 400,
      outcome: 'unknown-request',
    });
    expect((await fetch(`http://127.0.0.1:${receiver.port}/favicon.ico`)).status).toBe(404);
    expect(await page(`${receiver.redirectUri}?code=real-code&state=${state}`)).toEqual({
      status: 200,
      outcome: 'signed-in',
    });
    await receiver.done;
    expect(codes).toEqual(['real-code']);
    expect(await portIsClosed(receiver.port)).toBe(true);
  });

  it('reports a refusal in the browser as PERMISSION_DENIED', async () => {
    const state = createOAuthState();
    const receiver = await startLoopbackReceiver({ expectedState: state, handleCode: async () => {} });
    expect(await page(`${receiver.redirectUri}?error=access_denied&state=${state}`)).toEqual({
      status: 200,
      outcome: 'denied',
    });
    expect((await failure(receiver.done)).code).toBe('PERMISSION_DENIED');
  });

  it('shows a failed exchange on the page and rejects with its error', async () => {
    const state = createOAuthState();
    const receiver = await startLoopbackReceiver({
      expectedState: state,
      handleCode: async () => Promise.reject(new CairnError('AUTH_INVALID', 'code <b>refused</b>')),
    });
    const response = await fetch(`${receiver.redirectUri}?code=c&state=${state}`);
    const body = await response.text();
    expect([
      body.includes('data-outcome="failed"'),
      body.includes('code &lt;b&gt;refused&lt;/b&gt;'),
      body.includes('<b>'),
    ]).toEqual([true, true, false]);
    expect((await failure(receiver.done)).code).toBe('AUTH_INVALID');
  });

  it('times out and is cancellable, closing the port either way', async () => {
    const timed = await startLoopbackReceiver({
      expectedState: 's',
      handleCode: async () => {},
      timeoutMs: 50,
    });
    expect((await failure(timed.done)).code).toBe('TIMEOUT');
    expect(await portIsClosed(timed.port)).toBe(true);
    const controller = new AbortController();
    const cancelled = await startLoopbackReceiver({
      expectedState: 's',
      handleCode: async () => {},
      signal: controller.signal,
    });
    controller.abort();
    expect((await failure(cancelled.done)).code).toBe('CANCELLED');
    expect(await portIsClosed(cancelled.port)).toBe(true);
  });

  it('says which port is busy when the registered one is taken', async () => {
    const first = await startLoopbackReceiver({ expectedState: 's', handleCode: async () => {} });
    const busy = await failure(
      startLoopbackReceiver({ expectedState: 's', handleCode: async () => {}, port: first.port }),
    );
    expect([busy.code, busy.message.includes(`Port ${first.port}`)]).toEqual(['INVALID_ARGUMENT', true]);
    await fetch(`${first.redirectUri}?error=access_denied&state=s`);
    expect((await failure(first.done)).code).toBe('PERMISSION_DENIED');
  });
});
