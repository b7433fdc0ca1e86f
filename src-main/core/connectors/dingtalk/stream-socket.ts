/** Dialling the Stream WebSocket, with errors that never carry the ticket (the URL's only credential). */
import type WebSocket from 'ws';
import { CairnError } from '../../errors';

/** Error texts from ws or the network must not carry the dialled URL's ticket. */
export function scrub(text: string): string {
  return text.replace(/ticket=[^&\s"']+/gi, 'ticket=[redacted]');
}

/** Opens a WebSocket; rejects with a CairnError (never naming the URL) if it does not open in time. */
export async function dial(url: string, timeoutMs: number, signal: AbortSignal): Promise<WebSocket> {
  // Loaded on the first dial: only a DingTalk connection in Stream mode needs it, and importing it
  // up front cost every `cairn` command (docs/decisions/cli-startup.md).
  const { default: WebSocketClient } = await import('ws');
  if (signal.aborted) throw new CairnError('CANCELLED', 'Cancelled.');
  return new Promise((resolve, reject) => {
    const socket = new WebSocketClient(url, { handshakeTimeout: timeoutMs });
    const host = new URL(url).host;
    const fail = (error: CairnError) => {
      signal.removeEventListener('abort', onAbort);
      socket.removeAllListeners();
      socket.on('error', () => {}); // a late error after terminate must not crash the process
      socket.terminate();
      reject(error);
    };
    const onAbort = () => fail(new CairnError('CANCELLED', 'Cancelled.'));
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('open', () => {
      signal.removeEventListener('abort', onAbort);
      socket.removeAllListeners();
      resolve(socket);
    });
    socket.once('unexpected-response', (_request, response) => {
      // A spent or expired ticket is refused at the handshake; the next attempt asks for a new one.
      fail(
        new CairnError(
          'SOURCE_ERROR',
          `The DingTalk Stream endpoint at ${host} refused the connection (HTTP ${response.statusCode}).`,
        ),
      );
    });
    socket.once('error', (error) =>
      fail(
        new CairnError(
          'SOURCE_UNREACHABLE',
          `Cannot open the DingTalk Stream socket at ${host} (${scrub(error.message)}).`,
        ),
      ),
    );
  });
}
