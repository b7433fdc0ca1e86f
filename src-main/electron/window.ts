/**
 * The one app window, locked down per Electron's security checklist: context isolation, sandbox,
 * no Node in the page, no navigation, no new windows, no permission grants.
 * https://www.electronjs.org/docs/latest/tutorial/security
 */
import { BrowserWindow, session } from 'electron';

export interface MainWindowOptions {
  preloadPath: string;
  /** file:///…/out/renderer/index.html, or the dev server URL under `electron-vite dev`. */
  rendererUrl: string;
  iconPath?: string;
}

export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 1180,
    height: 800,
    minWidth: 760,
    minHeight: 520,
    show: false,
    title: 'Cairn',
    backgroundColor: '#f6f5f2',
    ...(options.iconPath ? { icon: options.iconPath } : {}),
    webPreferences: {
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
    },
  });
  // Every link leaves through api.app.openExternal (checked by core), never by navigating this window.
  window.webContents.on('will-navigate', (event) => event.preventDefault());
  window.webContents.on('will-redirect', (event) => event.preventDefault());
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  window.webContents.on('will-attach-webview', (event) => event.preventDefault());
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  window.once('ready-to-show', () => window.show());
  void window.loadURL(options.rendererUrl);
  return window;
}
