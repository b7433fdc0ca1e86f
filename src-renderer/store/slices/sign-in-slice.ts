/**
 * Feishu/Lark browser sign-in from a connection card. Core starts the flow and answers with the
 * page to open; in Electron the shell has opened it already (`opened`), in a browser tab the UI
 * opens it with window.open (injected, so tests see it). The outcome comes as `auth.finished`,
 * applied in apply-event.ts.
 */
import type { AppErrorData } from '@shared/errors';
import type { GetState, SetState, StoreDeps } from '../store-types';

export type SignInStatus =
  | { phase: 'waiting'; authorizeUrl: string; openedByShell: boolean }
  | { phase: 'succeeded' }
  | { phase: 'failed'; error: AppErrorData };

export interface SignInSlice {
  /** The sign-in this window started or saw finish, by connection id. */
  signIn: Record<string, SignInStatus>;
  startSignIn(connectionId: string): Promise<void>;
  cancelSignIn(connectionId: string): Promise<void>;
  /** Opens the sign-in page again (a popup blocker ate it, or the tab was closed). */
  reopenSignIn(connectionId: string): Promise<void>;
  /** Withdraws the user authorisation (the stored refresh token); the card offers Sign in again. */
  signOut(connectionId: string): Promise<void>;
}

/** Only web pages: a sign-in page is https (or the connection's own http base URL for fakes). */
export function isWebPage(url: string): boolean {
  try {
    const protocol = new URL(url).protocol;
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

export function createSignInSlice(set: SetState, get: GetState, { api, openWindow }: StoreDeps): SignInSlice {
  const openPage = async (url: string, openedByShell: boolean) => {
    if (!isWebPage(url))
      return get().showError({ code: 'PERMISSION_DENIED', message: 'Cairn opens only web sign-in pages.' });
    if (openedByShell) await get().openExternal(url);
    else openWindow(url);
  };
  return {
    signIn: {},
    async startSignIn(connectionId) {
      const result = await api.connections.authorize({ id: connectionId });
      if (!result.ok) {
        set((state) => ({
          signIn: { ...state.signIn, [connectionId]: { phase: 'failed', error: result.error } },
        }));
        return;
      }
      const { authorizeUrl, opened } = result.value;
      set((state) => ({
        signIn: {
          ...state.signIn,
          [connectionId]: { phase: 'waiting', authorizeUrl, openedByShell: opened },
        },
      }));
      if (!opened) await openPage(authorizeUrl, false);
    },
    async cancelSignIn(connectionId) {
      const result = await api.connections.cancelAuthorize({ id: connectionId });
      if (!result.ok) get().showError(result.error);
    },
    async signOut(connectionId) {
      const result = await api.connections.signOut({ id: connectionId });
      if (!result.ok) return get().showError(result.error);
      // The "just signed in" outcome no longer describes the card.
      set((state) => {
        const signIn = { ...state.signIn };
        delete signIn[connectionId];
        return { signIn };
      });
    },
    async reopenSignIn(connectionId) {
      const status = get().signIn[connectionId];
      if (status?.phase === 'waiting') await openPage(status.authorizeUrl, status.openedByShell);
      else await get().startSignIn(connectionId);
    },
  };
}
