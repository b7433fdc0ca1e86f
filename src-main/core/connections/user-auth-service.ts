/**
 * User sign-in for connections whose platform has one (Feishu/Lark): the OAuth authorization-code
 * flow with PKCE and a loopback redirect (RFC 8252). `start` returns the authorize URL for the
 * shell or the UI to open; the outcome arrives later as an `auth.finished` event and as the
 * connection's `userAuth` state. The refresh token goes to the secret store only: never to config,
 * logs, events or views.
 */
import type { ConnectionView, UserAuthState } from '@shared/models';
import { createOAuthState, createPkcePair } from '../auth/pkce';
import { startLoopbackReceiver } from '../auth/loopback-receiver';
import type { Connector } from '../connectors/connector';
import { CairnError, toErrorData } from '../errors';
import type { Logger } from '../logging/logger';
import type { EventBus } from '../events/event-bus';

export interface UserAuthServiceDeps {
  connectorFor(connectionId: string): Promise<Connector>;
  viewOf(connectionId: string): Promise<ConnectionView>;
  /** Merges secret fields into the connection's stored secrets (registering them with the redactor first). */
  storeSecrets(connectionId: string, secrets: Record<string, string>): Promise<void>;
  /** Records or clears, on the connection's row, that the platform refused its stored authorisation; true when that changed. */
  setUserAuthLost(connectionId: string, lost: boolean): Promise<boolean>;
  /** Re-announces `connections.changed` so views show the new `userAuth`. */
  announce(): Promise<void>;
  /** Runs after new credentials were stored, e.g. to drop a cached direct-search connector. */
  afterSignIn?(connectionId: string): Promise<void> | void;
  /**
   * Removes secret fields from the connection as an edit would (`clearSecrets`): connectors built
   * from them are dropped and the views announced. Sign-out uses it.
   */
  clearSecrets(connectionId: string, fields: string[]): Promise<ConnectionView>;
  events: EventBus;
  logger: Logger;
  redact?: (text: string) => string;
  /** How long to wait for the browser. Authorization codes live 5 minutes. @default 300000 */
  timeoutMs?: number;
}

/** The secret field that holds a user's authorisation (written by `exchangeCode`, removed by sign-out). */
const USER_AUTH_FIELD = 'userRefreshToken';

interface Flow {
  authorizeUrl: string;
  controller: AbortController;
  finished: Promise<void>;
}

export class UserAuthService {
  private readonly flows = new Map<string, Flow>();
  private readonly starting = new Map<string, Promise<{ authorizeUrl: string }>>();

  constructor(private readonly deps: UserAuthServiceDeps) {}

  /**
   * The `userAuth` a view shows; undefined for platforms without a user sign-in. `lost` is the
   * row's record that the platform refused the stored authorisation (it survives a restart).
   */
  stateOf(
    connectionId: string,
    hasSignIn: boolean,
    secretFields: readonly string[],
    lost: boolean,
  ): UserAuthState | undefined {
    if (!hasSignIn) return undefined;
    if (this.flows.has(connectionId)) return 'pending';
    if (!secretFields.includes(USER_AUTH_FIELD)) return 'none';
    return lost ? 'expired' : 'authorized';
  }

  /** The platform refused the stored refresh token for good; the card offers sign-in again, also after a restart. */
  markLost(connectionId: string): void {
    void this.deps
      .setUserAuthLost(connectionId, true)
      .then((changed) => (changed ? this.deps.announce() : undefined))
      .catch((error: unknown) =>
        this.deps.logger.warn('recording a lost user authorisation failed', { connectionId, error }),
      );
  }

  /** The user edited the connection's credentials: a refusal of the old ones says nothing about the new. */
  async credentialsChanged(connectionId: string): Promise<void> {
    await this.deps.setUserAuthLost(connectionId, false);
  }

  /**
   * Starts a sign-in and returns the page to open. One flow per connection: asking again while one
   * waits returns the same page (opening it twice is harmless; a second port would not be).
   */
  async start(connectionId: string): Promise<{ authorizeUrl: string }> {
    const running = this.flows.get(connectionId);
    if (running) return { authorizeUrl: running.authorizeUrl };
    const pending =
      this.starting.get(connectionId) ??
      this.startFlow(connectionId).finally(() => this.starting.delete(connectionId));
    this.starting.set(connectionId, pending);
    return pending;
  }

  private async startFlow(connectionId: string): Promise<{ authorizeUrl: string }> {
    const view = await this.deps.viewOf(connectionId);
    const connector = await this.deps.connectorFor(connectionId);
    const signIn = connector.userSignIn;
    if (!signIn) {
      await connector.dispose?.();
      throw new CairnError('UNSUPPORTED', `${view.name}: this platform has no user sign-in.`);
    }
    const controller = new AbortController();
    const pkce = createPkcePair();
    const state = createOAuthState();
    let receiver;
    let authorizeUrl: string;
    try {
      receiver = await startLoopbackReceiver({
        port: signIn.redirectPort,
        expectedState: state,
        timeoutMs: this.deps.timeoutMs,
        signal: controller.signal,
        handleCode: async (code) => {
          const secrets = await signIn.exchangeCode({
            code,
            redirectUri: receiver!.redirectUri,
            codeVerifier: pkce.verifier,
            signal: controller.signal,
          });
          await this.deps.storeSecrets(connectionId, secrets);
        },
      });
      authorizeUrl = signIn.authorizeUrl({
        redirectUri: receiver.redirectUri,
        state,
        codeChallenge: pkce.challenge,
      });
      checkAuthorizeUrl(authorizeUrl, view.config);
    } catch (error) {
      controller.abort();
      await receiver?.done.catch(() => {});
      await connector.dispose?.();
      throw error;
    }
    const finished = receiver.done.then(
      () => this.finish(connectionId, null),
      (error: unknown) => this.finish(connectionId, error),
    );
    this.flows.set(connectionId, {
      authorizeUrl,
      controller,
      finished: finished.finally(() => connector.dispose?.()),
    });
    this.deps.logger.info('user sign-in started', { connectionId, redirectPort: receiver.port });
    await this.deps.announce();
    return { authorizeUrl };
  }

  /** Ends a waiting sign-in; its `auth.finished` reports CANCELLED. No flow: nothing to do. */
  async cancel(connectionId: string): Promise<void> {
    const flow = this.flows.get(connectionId);
    if (!flow) return;
    flow.controller.abort();
    await flow.finished;
  }

  /**
   * Sign-out: ends a waiting sign-in, then removes the stored user refresh token; the app
   * credentials stay and the card offers "Sign in" again. Feishu documents no endpoint that
   * revokes a user's refresh token (its "退出登录" API, passport/v1/sessions/logout, ends the user's
   * Feishu client sessions instead), so nothing is sent to the platform: docs/connectors.md says
   * what the user can do there.
   */
  async signOut(connectionId: string): Promise<ConnectionView> {
    const view = await this.deps.viewOf(connectionId);
    if (view.userAuth === undefined)
      throw new CairnError('UNSUPPORTED', `${view.name}: this platform has no user sign-in.`);
    await this.cancel(connectionId);
    const after = await this.deps.clearSecrets(connectionId, [USER_AUTH_FIELD]);
    this.deps.logger.info('user signed out', {
      connectionId,
      hadAuthorisation: view.secretFields.includes(USER_AUTH_FIELD),
    });
    return after;
  }

  async dispose(): Promise<void> {
    await Promise.all([...this.flows.keys()].map((id) => this.cancel(id)));
  }

  private async finish(connectionId: string, error: unknown): Promise<void> {
    this.flows.delete(connectionId);
    const redact = this.deps.redact ?? ((text: string) => text);
    if (error === null) {
      try {
        await this.deps.setUserAuthLost(connectionId, false);
        await this.deps.afterSignIn?.(connectionId);
      } catch (failure) {
        this.deps.logger.warn('after-sign-in step failed', { connectionId, error: failure });
      }
      this.deps.logger.info('user sign-in finished', { connectionId });
    } else {
      this.deps.logger.info('user sign-in ended without authorisation', {
        connectionId,
        code: toErrorData(error).code,
      });
    }
    await this.deps
      .announce()
      .catch((failure: unknown) =>
        this.deps.logger.warn('announcing the sign-in outcome failed', { error: failure }),
      );
    const data = error === null ? null : toErrorData(error);
    this.deps.events.emit('auth.finished', {
      connectionId,
      ok: error === null,
      error: data && { code: data.code, message: redact(data.message) },
    });
  }
}

/**
 * Only an https page may be opened, or a page on the connection's own configured (base or
 * accounts) URL: a fake on 127.0.0.1 or a private deployment the user typed in themselves.
 */
export function checkAuthorizeUrl(authorizeUrl: string, config: ConnectionView['config']): void {
  const url = new URL(authorizeUrl);
  if (url.protocol === 'https:') return;
  const configured = [config.baseUrl, config.accountsBaseUrl].filter(
    (value): value is string => typeof value === 'string' && value !== '',
  );
  const origins = configured.flatMap((value) => {
    try {
      return [new URL(value).origin];
    } catch {
      return [];
    }
  });
  if (url.protocol === 'http:' && origins.includes(url.origin)) return;
  throw new CairnError(
    'PERMISSION_DENIED',
    `Cairn opens only https sign-in pages (or the connection's own base URL), not ${url.protocol}//${url.host}.`,
  );
}
