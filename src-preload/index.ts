/**
 * The preload exposes exactly three things to the sandboxed page: `api` (the typed contract, one
 * proxy built from API_METHODS over a single invoke channel), `onCairnEvent` (pushed events) and
 * `pathForFile` (the path of a folder dropped on the window, for "Add folder").
 * No ipcRenderer, no Node: https://www.electronjs.org/docs/latest/tutorial/context-isolation
 */
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
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

// https://www.electronjs.org/docs/latest/api/web-utils#webutilsgetpathforfilefile
function pathForFile(file: unknown): string {
  return webUtils.getPathForFile(file as File);
}

const globals: CairnPreloadGlobals = { api, onCairnEvent, pathForFile };
contextBridge.exposeInMainWorld('api', globals.api);
contextBridge.exposeInMainWorld('onCairnEvent', globals.onCairnEvent);
contextBridge.exposeInMainWorld('pathForFile', globals.pathForFile);
