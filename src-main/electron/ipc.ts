/**
 * The IPC door: one `invoke` channel for every contract method (validated in the shared
 * dispatcher) and one `event` channel for pushed events. Only our own window is answered.
 */
import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '@shared/bridge';
import { fail } from '@shared/errors';
import type { EventBus } from '../core/events/event-bus';
import type { ApiDispatcher } from '../transport/api-dispatcher';
import { isTrustedSender } from './sender-check';

export function registerIpc(options: {
  window: BrowserWindow;
  rendererUrl: string;
  dispatch: ApiDispatcher;
  events: EventBus;
}): () => void {
  const { window, rendererUrl, dispatch, events } = options;
  ipcMain.handle(IPC_INVOKE_CHANNEL, async (event: IpcMainInvokeEvent, channel: unknown, input: unknown) => {
    const trusted = isTrustedSender(
      {
        webContentsId: event.sender.id,
        frameUrl: event.senderFrame?.url,
        isMainFrame: event.senderFrame !== null && event.senderFrame === event.sender.mainFrame,
      },
      { webContentsId: window.webContents.id, rendererUrl },
    );
    if (!trusted) return fail('PERMISSION_DENIED', 'This page may not call Cairn.');
    if (typeof channel !== 'string') return fail('INVALID_ARGUMENT', 'The method name must be a string.');
    return dispatch(channel, input);
  });
  const unsubscribe = events.onAny((name, payload) => {
    if (!window.isDestroyed()) window.webContents.send(IPC_EVENT_CHANNEL, name, payload);
  });
  return () => {
    ipcMain.removeHandler(IPC_INVOKE_CHANNEL);
    unsubscribe();
  };
}
