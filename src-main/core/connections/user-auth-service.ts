/**
 * User sign-in for connections whose platform has one (Feishu/Lark): the OAuth authorization-code
 * flow with PKCE and a loopback redirect (RFC 8252). `start` returns the authorize URL for the
 * shell or the UI to open; the outcome arrives later as an `auth.finished` event and as the
 * connection's `userAuth` state. The refresh token goes to the secret store only: never to config,
 * logs, events or views.
 */
import type { ConnectionView } from '@shared/models';
import { createOAuthState, createPkcePair } from '../auth/pkce';
import { startLoopbackReceiver } from '../auth/loopback-receiver';
import { CairnError, toErrorData } from '../errors';
import type { ConnectionEventBus } from '../events/connection-events';
import type { EventBus } from '../events/event-bus';
import type { Logger } from '../logging/logger';
import { announceConnections } from './announce';
import type { ConnectionConnectors } from './connection-connectors';
import type { ConnectionRepository } from './connection-repository';
import type { ConnectionSecrets } from './connection-secrets';
import type { ConnectionService } from './connection-service';
import { USER_AUTH_FIELD, type SignInFlows } from './sign-in-flows';

export interface UserAuthServiceDeps {
  connectors: Pick<ConnectionConnectors, 'forConnection'>;
  repository: Pick<ConnectionRepository, 'get' | 'list' | 'setUserAuthLost'>;
  secrets: Pick<ConnectionSecrets, 'merge'>;
  /** Sign-out is an edit of the credentials (`clearSecrets`): connectors built from them are dropped. */
  connections: Pick<ConnectionService, 'update'>;
  /** The waiting flows; the repository reads them to show "pending". */
  flows: SignInFlows;
  /**
   * Subscribed: removing (cancel a waiting sign-in), credentialsChanged, accessLost. Published:
   * credentialsChanged, and signingOut (a running sync holds the authorisation and would keep
   * rotating it: its owner stops it before the token goes).
   */
  lifecycle: ConnectionEventBus;
  events: EventBus;
  logger: Logger;
  redact?: (text: string) => string;
  /** How long to wait for the browser. Authorization codes live 5 minutes. @default 300000 */
  timeoutMs?: number;
}

export class UserAuthService {
  private readonly starting = new Map<string, Promise<{ authorizeUrl: string }>>();
  private readonly unsubscribe: (() => void)[];

  constructor(private readonly deps: UserAuthServiceDeps) {
    this.unsubscribe = [
      deps.lifecycle.on('removing', ({ connectionId }) => this.cancel(connectionId)),
      // New credentials (an edit, a sign-in): a refusal of the old ones says nothing about them.
      deps.lifecycle.on('credentialsChanged', async ({ connectionId }) => {
        await deps.repository.setUserAuthLost(connectionId, false);
      }),
      deps.lifecycle.on('accessLost', ({ connectionId }) => this.markLost(connectionId)),
    ];
  }

  /** The platform refused the stored refresh token for good; the card offers sign-in again, also after a restart. */
  private async markLost(connectionId: string): Promise<void> {
    try {
      if (await this.deps.repository.setUserAuthLost(connectionId, true)) await this.announce();
    } catch (error) {
      this.deps.logger.warn('recording a lost user authorisation failed', { connectionId, error });
    }
  }

  /**
   * Starts a sign-in and returns the page to open. One flow per connection: asking again while one
   * waits returns the same page (opening it twice is harmless; a second port would not be).
   */
  async start(connectionId: string): Promise<{ authorizeUrl: string }> {
    const running = this.deps.flows.get(connectionId);
    if (running) return { authorizeUrl: running.authorizeUrl };
    const pending =
      this.starting.get(connectionId) ??
      this.startFlow(connectionId).finally(() => this.starting.delete(connectionId));
    this.starting.set(connectionId, pending);
    return pending;
  }

  private async startFlow(connectionId: string): Promise<{ authorizeUrl: string }> {
    const view = await this.deps.repository.get(connectionId);
    const connector = await this.deps.connectors.forConnection(connectionId);
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
          await this.deps.secrets.merge(connectionId, secrets);
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
    this.deps.flows.set(connectionId, {
      authorizeUrl,
      controller,
      finished: finished.finally(() => connector.dispose?.()),
    });
    this.deps.logger.info('user sign-in started', { connectionId, redirectPort: receiver.port });
    await this.announce();
    return { authorizeUrl };
  }

  /** Ends a waiting sign-in; its `auth.finished` reports CANCELLED. No flow: nothing to do. */
  async cancel(connectionId: string): Promise<void> {
    const flow = this.deps.flows.get(connectionId);
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
    const view = await this.deps.repository.get(connectionId);
    if (view.userAuth === undefined)
      throw new CairnError('UNSUPPORTED', `${view.name}: this platform has no user sign-in.`);
    await this.cancel(connectionId);
    await this.deps.lifecycle.publish('signingOut', { connectionId });
    const after = await this.deps.connections.update({ id: connectionId, clearSecrets: [USER_AUTH_FIELD] });
    this.deps.logger.info('user signed out', {
      connectionId,
      hadAuthorisation: view.secretFields.includes(USER_AUTH_FIELD),
    });
    return after;
  }

  async dispose(): Promise<void> {
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    await Promise.all(this.deps.flows.connectionIds().map((id) => this.cancel(id)));
  }

  private async finish(connectionId: string, error: unknown): Promise<void> {
    this.deps.flows.delete(connectionId);
    const redact = this.deps.redact ?? ((text: string) => text);
    if (error === null) {
      try {
        await this.deps.lifecycle.publish('credentialsChanged', { connectionId });
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
    await this.announce().catch((failure: unknown) =>
      this.deps.logger.warn('announcing the sign-in outcome failed', { error: failure }),
    );
    const data = error === null ? null : toErrorData(error);
    this.deps.events.emit('auth.finished', {
      connectionId,
      ok: error === null,
      error: data && { code: data.code, message: redact(data.message) },
    });
  }

  private announce(): Promise<void> {
    return announceConnections(this.deps.events, this.deps.repository);
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
