/**
 * The `connections` domain of the contract: validates new and edited connections against
 * PLATFORM_INFO (connection-fields.ts), keeps secrets in the SecretStore (never in the table,
 * logs or views), builds connectors for a connection, and announces every change as
 * `connections.changed`.
 */
import type { ConnectionMode, ConnectionUpdate, ConnectionView, NewConnection } from '@shared/models';
import type { Connector, ConnectorInit } from '../connectors/connector';
import { createConnector, defaultConnectorFactories, type ConnectorFactories } from '../connectors/registry';
import { CairnError, isAbortError } from '../errors';
import type { Logger, SecretRedactor } from '../logging/logger';
import type { SecretStore } from '../secrets/secret-store';
import { checkNewConnection, parseConnectionUpdate, planConnectionEdit } from './connection-fields';
import type { ConnectionRepository } from './connection-repository';
import { DraftSecrets } from './draft-secrets';
import type { EventBus } from '../events/event-bus';

export interface ConnectionServiceDeps {
  repository: ConnectionRepository;
  secrets: SecretStore;
  logger: Logger;
  /** @default defaultConnectorFactories() */
  factories?: ConnectorFactories;
  events?: EventBus;
  /** Secret values are registered here as they are read, so no log line can carry them. */
  redactor?: SecretRedactor;
  /** Runs before a connection is deleted: cancel its sync, drop its vectors. */
  beforeRemove?: (connectionId: string) => Promise<void>;
  /** Runs after a connection was switched to direct mode: stop its sync (its index stays on disk). */
  afterSwitchToDirect?: (connectionId: string) => Promise<void>;
  /**
   * Runs an edit of how a connection reaches its platform while no sync of it can start; throws
   * ALREADY_SYNCING when one runs. @default runs the edit directly (no sync service)
   */
  withoutSync?: <T>(connectionId: string, edit: () => Promise<T>) => Promise<T>;
  /** Runs after a connection's settings or credentials changed: drop connectors built from the old ones. */
  afterAccessChange?: (connectionId: string) => Promise<void>;
  /** "Test connection" gives up after this long. @default 15000 */
  testTimeoutMs?: number;
  /** A connector found the stored user authorisation refused for good (user-auth-service.ts). */
  onUserAuthLost?: (connectionId: string) => void;
}

export class ConnectionService {
  private readonly factories: ConnectorFactories;
  private readonly drafts = new DraftSecrets();

  constructor(private readonly deps: ConnectionServiceDeps) {
    this.factories = deps.factories ?? defaultConnectorFactories();
  }

  list(): Promise<ConnectionView[]> {
    return this.deps.repository.list();
  }

  async add(input: NewConnection): Promise<ConnectionView> {
    const checked = checkNewConnection(input);
    // A "Test connection" before Add may have rotated a single-use token the form still holds.
    const clean = { ...checked, secrets: this.drafts.take(checked.platform, checked.secrets) };
    const hasSecrets = Object.keys(clean.secrets).length > 0;
    const view = await this.deps.repository.create({
      platform: clean.platform,
      name: clean.name,
      mode: clean.mode,
      config: clean.config,
      hasSecrets,
    });
    if (hasSecrets) {
      const ref = await this.deps.repository.secretRef(view.id);
      try {
        if (ref) await this.deps.secrets.set(ref, clean.secrets);
      } catch (error) {
        await this.deps.repository.remove(view.id); // no connection without its credentials
        throw error;
      }
    }
    await this.announce();
    return this.deps.repository.get(view.id);
  }

  async test(id: string, signal?: AbortSignal): Promise<{ message: string }> {
    const connector = await this.connectorFor(id);
    const answer = await this.validate(connector, signal);
    // Working credentials end a failure that was about reaching the platform (not before).
    if (await this.deps.repository.clearAccessFailure(id)) await this.announce();
    return answer;
  }

  async testNew(input: NewConnection, signal?: AbortSignal): Promise<{ message: string }> {
    const clean = checkNewConnection(input);
    const secrets = this.drafts.current(clean.platform, clean.secrets);
    this.deps.redactor?.register(...Object.values(clean.secrets), ...Object.values(secrets));
    const init: ConnectorInit = {
      config: clean.config,
      secrets,
      logger: this.deps.logger.child(clean.platform),
      saveSecrets: async (rotated) => {
        this.deps.redactor?.register(...Object.values(rotated));
        this.drafts.remember(clean.platform, clean.secrets, rotated);
      },
    };
    return this.validate(createConnector(clean.platform, init, this.factories), signal);
  }

  async setMode(id: string, mode: ConnectionMode): Promise<ConnectionView> {
    let view = await this.deps.repository.setMode(id, mode);
    // The mode changes first, so no new sync can start between the cancel and the switch.
    if (mode === 'direct' && this.deps.afterSwitchToDirect) {
      await this.deps.afterSwitchToDirect(id);
      view = await this.deps.repository.get(id);
    }
    await this.announce();
    return view;
  }

  async rename(id: string, name: string): Promise<ConnectionView> {
    const view = await this.deps.repository.rename(id, name);
    await this.announce();
    return view;
  }

  /**
   * Edits a saved connection in place: its documents, chunks and run history stay. A secret left
   * out keeps its stored value. A failure shown on the card stays until a test or a sync with the
   * new settings succeeds. Refused while a sync of this connection runs: that sync holds a
   * connector built from the old credentials, and the user decides whether to stop it.
   */
  async update(input: ConnectionUpdate): Promise<ConnectionView> {
    const update = parseConnectionUpdate(input);
    const view = await this.deps.repository.get(update.id);
    const ref = await this.deps.repository.secretRef(view.id);
    const stored = ref ? ((await this.deps.secrets.get(ref)) ?? {}) : {};
    const sent = { ...update, secrets: this.drafts.take(draftKey(view), update.secrets ?? {}) };
    const edit = planConnectionEdit(view, stored, sent);
    this.deps.redactor?.register(...Object.values(edit.secrets));
    const secretsChange = Object.keys(edit.givenSecrets).length + edit.clearedSecrets.length > 0;
    // Every platform with secret fields requires one, so its connections were created with a ref.
    if (secretsChange && !ref)
      throw new CairnError('INTERNAL', `Connection ${view.id} has no secret reference.`);
    const save = async () => {
      if (secretsChange && ref) await this.deps.secrets.set(ref, edit.secrets);
      try {
        await this.deps.repository.update(view.id, { name: edit.name, config: edit.config });
      } catch (error) {
        // The row kept its old settings: put the old credentials back so the two still match.
        if (secretsChange && ref) await this.deps.secrets.set(ref, stored);
        throw error;
      }
    };
    if (edit.changesAccess) {
      await (this.deps.withoutSync ?? ((_id, work) => work()))(view.id, save);
      await this.deps.afterAccessChange?.(view.id);
    } else await save();
    await this.announce();
    return this.deps.repository.get(view.id);
  }

  /** Tests an edit before it is saved: the edited fields with the stored secrets, which never leave core. */
  async testUpdate(input: ConnectionUpdate, signal?: AbortSignal): Promise<{ message: string }> {
    const update = parseConnectionUpdate(input);
    const view = await this.deps.repository.get(update.id);
    const ref = await this.deps.repository.secretRef(view.id);
    const stored = ref ? ((await this.deps.secrets.get(ref)) ?? {}) : {};
    const sentSecrets = update.secrets ?? {};
    const edit = planConnectionEdit(view, stored, {
      ...update,
      secrets: this.drafts.current(draftKey(view), sentSecrets),
    });
    this.deps.redactor?.register(...Object.values(edit.secrets));
    const init: ConnectorInit = {
      config: edit.config,
      secrets: edit.secrets,
      logger: this.deps.logger.child(view.platform),
      // A single-use token rotated while testing: one that came from the store is spent there,
      // so the store gets the new one now; one the form sent is remembered for the Save.
      saveSecrets: async (rotated) => {
        this.deps.redactor?.register(...Object.values(rotated));
        const changed = Object.entries(rotated).filter(([key, value]) => edit.secrets[key] !== value);
        const fromForm = Object.fromEntries(changed.filter(([key]) => key in edit.givenSecrets));
        const fromStore = Object.fromEntries(changed.filter(([key]) => !(key in edit.givenSecrets)));
        if (ref && Object.keys(fromStore).length > 0)
          await this.deps.secrets.set(ref, { ...((await this.deps.secrets.get(ref)) ?? {}), ...fromStore });
        if (Object.keys(fromForm).length > 0) this.drafts.remember(draftKey(view), sentSecrets, fromForm);
      },
    };
    return this.validate(createConnector(view.platform, init, this.factories), signal);
  }

  async remove(id: string): Promise<void> {
    await this.deps.repository.get(id);
    await this.deps.beforeRemove?.(id);
    const { secretRef } = await this.deps.repository.remove(id);
    if (secretRef) await this.deps.secrets.delete(secretRef);
    await this.announce();
  }

  /** A ready connector for a saved connection (the sync engine and direct search use this). */
  async connectorFor(id: string): Promise<Connector> {
    const view = await this.deps.repository.get(id);
    const ref = await this.deps.repository.secretRef(id);
    const secrets = ref ? ((await this.deps.secrets.get(ref)) ?? {}) : {};
    this.deps.redactor?.register(...Object.values(secrets));
    // What this connector holds: a rotation is stored only over the value it replaces.
    let held = { ...secrets };
    const init: ConnectorInit = {
      config: view.config,
      secrets,
      logger: this.deps.logger.child(view.platform),
      // OAuth refresh-token rotation: the new token replaces the old one at once.
      saveSecrets: async (rotated) => {
        held = await this.storeRotatedSecrets(id, held, rotated);
      },
      onUserAuthLost: () => this.deps.onUserAuthLost?.(id),
    };
    return createConnector(view.platform, init, this.factories);
  }

  /**
   * Stores the fields a connector rotated, but only where the store still holds the value that
   * connector was built with: after a sign-out or an edit, a connector still running on the old
   * credentials (a sync, a direct search in flight) must not write them back. Returns what the
   * connector now holds.
   */
  private async storeRotatedSecrets(
    id: string,
    held: Record<string, string>,
    rotated: Record<string, string>,
  ): Promise<Record<string, string>> {
    const ref = await this.deps.repository.secretRef(id);
    if (!ref) throw new CairnError('INTERNAL', `Connection ${id} has no secret reference.`);
    this.deps.redactor?.register(...Object.values(rotated));
    const current = (await this.deps.secrets.get(ref)) ?? {};
    const changed = Object.entries(rotated).filter(([key, value]) => held[key] !== value);
    const applicable = changed.filter(([key]) => current[key] === held[key]);
    const stale = changed.filter(([key]) => current[key] !== held[key]).map(([key]) => key);
    if (stale.length > 0)
      this.deps.logger.warn(
        'a rotated credential was not stored: the stored one was replaced or removed meanwhile',
        { connectionId: id, fields: stale },
      );
    if (applicable.length > 0)
      await this.deps.secrets.set(ref, { ...current, ...Object.fromEntries(applicable) });
    return { ...held, ...Object.fromEntries(changed) };
  }

  /** Merges secret fields into a saved connection's stored secrets (token rotation, sign-in). */
  async storeSecrets(id: string, patch: Record<string, string>): Promise<void> {
    const ref = await this.deps.repository.secretRef(id);
    if (!ref) throw new CairnError('INTERNAL', `Connection ${id} has no secret reference.`);
    this.deps.redactor?.register(...Object.values(patch));
    await this.deps.secrets.set(ref, { ...((await this.deps.secrets.get(ref)) ?? {}), ...patch });
  }

  /** Tells every listener the current views (e.g. after a sign-in changed what they show). */
  announceChanged(): Promise<void> {
    return this.announce();
  }

  private async validate(connector: Connector, signal?: AbortSignal): Promise<{ message: string }> {
    const timeoutMs = this.deps.testTimeoutMs ?? 15_000;
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      return { message: await connector.validate(combined) };
    } catch (error) {
      if (timeout.aborted && !signal?.aborted && isAbortError(error)) {
        throw new CairnError('TIMEOUT', `No answer within ${+(timeoutMs / 1000).toFixed(1)} s.`);
      }
      throw error;
    } finally {
      await connector.dispose?.();
    }
  }

  private async announce(): Promise<void> {
    if (this.deps.events) this.deps.events.emit('connections.changed', await this.deps.repository.list());
  }
}

/** Drafts of an edit are kept apart per connection (a new connection's are per platform). */
function draftKey(view: ConnectionView): string {
  return `${view.platform}:${view.id}`;
}
