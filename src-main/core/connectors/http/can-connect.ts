/**
 * Whether anything accepts a TCP connection at an origin's host and port: the cheapest check that
 * a platform's server is there at all. It sends no request (so it spends none of the platform's
 * request quota) and waits in none of a connector's rate queues, which is why a sync can ask it
 * between two documents' attempts to tell a dead server from one failed request.
 */
import { connect } from 'node:net';

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
