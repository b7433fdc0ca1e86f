/** The tray icon and its menu, rebuilt from ShellState (throttled: progress events are frequent). */
import { Menu, Tray, nativeImage, type MenuItemConstructorOptions } from 'electron';
import type { ShellState } from './shell-state';
import { trayMenuModel, type TrayAction } from './tray-menu';

export interface TrayOptions {
  iconPath: string;
  state: ShellState;
  language: () => 'en' | 'zh';
  onAction: (action: TrayAction) => void;
  /** @default 400 */
  refreshMs?: number;
}

export function createTray(options: TrayOptions): () => void {
  const icon = nativeImage.createFromPath(options.iconPath);
  const tray = new Tray(icon.isEmpty() ? nativeImage.createEmpty() : icon);
  tray.setToolTip('Cairn');
  let pending: ReturnType<typeof setTimeout> | null = null;

  function rebuild(): void {
    pending = null;
    const items = trayMenuModel({
      connections: options.state.connections,
      progress: options.state.progress,
      paused: options.state.settings?.scheduledSyncPaused ?? false,
      language: options.language(),
    });
    const template: MenuItemConstructorOptions[] = items.map((item) => {
      if (item.type === 'separator') return { type: 'separator' };
      if (item.type === 'checkbox')
        return {
          type: 'checkbox',
          label: item.label,
          checked: item.checked,
          click: () => options.onAction(item.action),
        };
      return { label: item.label, enabled: item.enabled, click: () => options.onAction(item.action) };
    });
    tray.setContextMenu(Menu.buildFromTemplate(template));
  }

  rebuild();
  const unsubscribe = options.state.onChange(() => {
    pending ??= setTimeout(rebuild, options.refreshMs ?? 400);
  });
  tray.on('click', () => options.onAction({ kind: 'open' }));
  return () => {
    unsubscribe();
    if (pending) clearTimeout(pending);
    tray.destroy();
  };
}
