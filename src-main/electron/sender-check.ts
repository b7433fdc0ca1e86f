/**
 * IPC is answered only for our own window's top frame showing our own renderer (electron/fiddle's
 * rule): a navigated, framed or foreign page must not reach core.
 * https://www.electronjs.org/docs/latest/tutorial/security#17-validate-the-sender-of-all-ipc-messages
 */
export interface IpcSender {
  webContentsId: number;
  /** URL of the frame that sent the message (event.senderFrame.url). */
  frameUrl: string | undefined;
  isMainFrame: boolean;
}

export interface ExpectedSender {
  webContentsId: number;
  /** The URL the window loads: file:///…/out/renderer/index.html, or the dev server in `electron-vite dev`. */
  rendererUrl: string;
}

export function isTrustedSender(sender: IpcSender, expected: ExpectedSender): boolean {
  if (sender.webContentsId !== expected.webContentsId || !sender.isMainFrame || !sender.frameUrl)
    return false;
  let actual: URL;
  let wanted: URL;
  try {
    actual = new URL(sender.frameUrl);
    wanted = new URL(expected.rendererUrl);
  } catch {
    return false;
  }
  if (wanted.protocol === 'file:') return actual.protocol === 'file:' && actual.pathname === wanted.pathname;
  return actual.origin === wanted.origin;
}
