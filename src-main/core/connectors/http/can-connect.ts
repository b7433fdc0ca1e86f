/**
 * Whether anything accepts a TCP connection at an origin's host and port: the cheapest check that
 * a platform's server is there at all. It sends no request (so it spends none of the platform's
 * request quota) and waits in none of a connector's rate queues, which is why a sync can ask it
 * between two documents' attempts to tell a dead server from one failed request. `answers` asks a
 * little more: that something comes back, for a server that accepts connections and then hangs.
 */
import { connect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

export interface CanConnectOptions {
  /** How long a connection may take to open before the origin counts as unreachable. @default 3000 */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** True when `origin` (`http(s)://host[:port]`) accepts a connection; false on refusal, a name that does not resolve, or a timeout. */
export function canConnect(origin: string, options: CanConnectOptions = {}): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return Promise.resolve(false);
  }
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  // URL keeps an IPv6 host in brackets; net.connect wants it bare.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve) => {
    if (options.signal?.aborted) return resolve(false);
    const socket = connect({ host, port });
    const done = (reachable: boolean) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(reachable);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(false), options.timeoutMs ?? 3000);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    options.signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * True when `origin` answers at all: it accepts a connection and sends anything back to a bare
 * `HEAD /` within the timeout (a TLS origin: completes the handshake and answers likewise). Any
 * status counts: only silence does not. This tells a server that hangs (it accepts connections but
 * never replies, so every document runs into its own 15 s timeout) from one slow request. It costs
 * one request to the origin's root: no platform API call, no credentials, no rate queue.
 */
export function answers(origin: string, options: CanConnectOptions = {}): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return Promise.resolve(false);
  }
  const secure = url.protocol === 'https:';
  const port = Number(url.port) || (secure ? 443 : 80);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve) => {
    if (options.signal?.aborted) return resolve(false);
    const request = `HEAD / HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`;
    // Nothing secret is sent, so the certificate is not what is being asked about.
    const socket = secure
      ? tlsConnect({ host, port, servername: host, rejectUnauthorized: false }, () => socket.write(request))
      : connect({ host, port }, () => socket.write(request));
    const done = (answered: boolean) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(answered);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(false), options.timeoutMs ?? 3000);
    socket.once('data', () => done(true));
    socket.once('error', () => done(false));
    socket.once('end', () => done(false));
    options.signal?.addEventListener('abort', onAbort, { once: true });
  });
}
