/**
 * Electron entry. Builds the shell around one Cairn (the composition root, via open-cairn.ts):
 * window, IPC, tray, notifications. Every piece returns a disposer; quitting runs them in
 * reverse, then disposes Cairn (which closes the database last). STYLE.md §3, §9.
 *   --no-tray   start without a tray icon (CI, desktops without a system tray)
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { app, BrowserWindow, dialog, Notification, safeStorage } from 'electron';
import { createLogger } from '../core/logging/logger';
import { createApiDispatcher, withExternalOpener, withSignInOpener } from '../transport/api-dispatcher';
import { registerIpc } from './ipc';
import { desktopDataDir, desktopSecretFile, openCairn } from './open-cairn';
import { SafeStorageSecretStore } from './safe-storage-secret-store';
import { openWithShell } from './shell-opener';
import { observeSettings, ShellState } from './shell-state';
import { watchSyncNotifications } from './sync-notifications';
import { createTray } from './tray';
import type { TrayAction } from './tray-menu';
import { createMainWindow } from './window';

const flags = new Set(process.argv.slice(1));
const withTray = !flags.has('--no-tray') && process.env.CAIRN_NO_TRAY !== '1';
const logger = createLogger({ scope: 'desktop' });
const disposers: (() => void | Promise<void>)[] = [];
let mainWindow: BrowserWindow | null = null;
let quitting = false;

function here(relative: string): string {
  return fileURLToPath(new URL(relative, import.meta.url));
}

function resourcePath(name: string): string {
  return app.isPackaged
    ? join(process.resourcesPath, 'resources', name)
    : join(app.getAppPath(), 'resources', name);
}

function rendererUrl(): string {
  // electron-vite dev serves the renderer with hot reload; built apps load the file.
  const devServer = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
  return devServer ?? pathToFileURL(here('../renderer/index.html')).toString();
}

function systemLanguage(): 'en' | 'zh' {
  return app.getLocale().toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

async function start(): Promise<void> {
  const dataDir = desktopDataDir(
    process.env,
    process.argv.find((arg) => arg.startsWith('--data-dir='))?.slice('--data-dir='.length),
  );
  const secretStore = new SafeStorageSecretStore(safeStorage, desktopSecretFile(dataDir));
  // The installed app's own binary runs the built CLI as plain Node (ELECTRON_RUN_AS_NODE), so AI
  // tools need nothing else installed: <app> <app path>/out/cli/cli.js mcp (scripts/build-cli.mjs;
  // bin/ and the sources are not packaged).
  const mcpLaunch = {
    command: process.execPath,
    args: [join(app.getAppPath(), 'out', 'cli', 'cli.js')],
    env: { ELECTRON_RUN_AS_NODE: '1' },
  };
  const cairn = await openCairn({
    dataDir,
    secretStore,
    logger,
    mcpLaunch,
    pickFolder: async () => {
      const options = { properties: ['openDirectory' as const] };
      const picked =
        mainWindow && !mainWindow.isDestroyed()
          ? await dialog.showOpenDialog(mainWindow, options)
          : await dialog.showOpenDialog(options);
      return picked.canceled ? null : (picked.filePaths[0] ?? null);
    },
  });
  disposers.push(() => cairn.dispose());

  const state = new ShellState(cairn.events);
  disposers.push(() => state.dispose());
  const language = () => {
    const chosen = state.settings?.language ?? 'system';
    return chosen === 'system' ? systemLanguage() : chosen;
  };
  // Links and the Feishu/Lark sign-in page open in the system browser, never in the app window.
  const api = observeSettings(
    withSignInOpener(withExternalOpener(cairn.api, openWithShell), openWithShell, logger),
    (settings) => state.setSettings(settings),
  );
  const dispatch = createApiDispatcher(api, logger);

  const url = rendererUrl();
  const iconPath = resourcePath('icon.png');
  const showWindow = () => {
    if (!mainWindow || mainWindow.isDestroyed()) {
      mainWindow = createMainWindow({
        preloadPath: here('../preload/index.cjs'),
        rendererUrl: url,
        ...(existsSync(iconPath) ? { iconPath } : {}),
      });
      const window = mainWindow;
      const stopIpc = registerIpc({ window, rendererUrl: url, dispatch, events: cairn.events });
      window.on('closed', () => {
        stopIpc();
        if (mainWindow === window) mainWindow = null;
      });
      return;
    }
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.show();
    mainWindow.focus();
  };

  const status = await cairn.api.app.status();
  if (status.ok) state.hydrate(status.value);
  else logger.warn('initial status failed', { error: status.error });

  if (withTray) {
    const onAction = (action: TrayAction) => {
      if (action.kind === 'open') showWindow();
      else if (action.kind === 'syncAll') void api.sync.startAll();
      else if (action.kind === 'sync') void api.sync.start({ connectionId: action.connectionId });
      else if (action.kind === 'togglePause')
        void api.settings.update({ scheduledSyncPaused: !(state.settings?.scheduledSyncPaused ?? false) });
      else app.quit();
    };
    disposers.push(createTray({ iconPath: resourcePath('tray.png'), state, language, onAction }));
  }
  if (Notification.isSupported()) {
    disposers.push(
      watchSyncNotifications({
        events: cairn.events,
        connections: () => state.connections,
        language,
        notify: ({ title, body }) => new Notification({ title, body }).show(),
      }),
    );
  }
  app.on('second-instance', showWindow);
  app.on('activate', showWindow);
  showWindow();
}

async function disposeAll(): Promise<void> {
  for (const dispose of disposers.splice(0).reverse()) {
    try {
      await dispose();
    } catch (error) {
      logger.error('dispose failed', { error });
    }
  }
}

if (!app.requestSingleInstanceLock()) {
  // Another Cairn owns the data directory; it gets focus through 'second-instance'.
  app.quit();
} else {
  app.on('window-all-closed', () => {
    // With a tray Cairn keeps running for scheduled syncs; without one, closing the window quits.
    if (!withTray) app.quit();
  });
  app.on('before-quit', (event) => {
    if (quitting) return;
    event.preventDefault();
    quitting = true;
    void disposeAll().finally(() => app.exit(0));
  });
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      logger.error('Cairn could not start', { error });
      dialog.showErrorBox('Cairn could not start', error instanceof Error ? error.message : String(error));
      quitting = true;
      void disposeAll().finally(() => app.exit(1));
    });
}
