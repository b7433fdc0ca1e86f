/**
 * The preload exposes exactly two things to the sandboxed page: `api` (the typed contract, one
 * proxy built from API_METHODS over a single invoke channel) and `onCairnEvent` (pushed events).
 * No ipcRenderer, no Node: https://www.electronjs.org/docs/latest/tutorial/context-isolation
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import {
  buildApiProxy,
  IPC_EVENT_CHANNEL,
  IPC_INVOKE_CHANNEL,
  type CairnEventListener,
  type CairnPreloadGlobals,
} from '@shared/bridge';
import type { Result } from '@shared/errors';

const api = buildApiProxy(
  (channel, input) => ipcRenderer.invoke(IPC_INVOKE_CHANNEL, channel, input) as Promise<Result<unknown>>,
);

function onCairnEvent(listener: CairnEventListener): () => void {
  const forward = (_event: IpcRendererEvent, name: Parameters<CairnEventListener>[0], payload: unknown) =>
    listener(name, payload as never);
  ipcRenderer.on(IPC_EVENT_CHANNEL, forward);
  return () => ipcRenderer.removeListener(IPC_EVENT_CHANNEL, forward);
}

const globals: CairnPreloadGlobals = { api, onCairnEvent };
contextBridge.exposeInMainWorld('api', globals.api);
contextBridge.exposeInMainWorld('onCairnEvent', globals.onCairnEvent);
