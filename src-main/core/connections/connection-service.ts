/**
 * The `connections` domain: validates new and edited connections against PLATFORM_INFO
 * (connection-fields.ts), keeps their secrets through ConnectionSecrets (never in the table, logs
 * or views), tests them, and tells the rest of core what changed: lifecycle events to the
 * services that hold something of a connection (core/events/connection-events.ts), and
 * `connections.changed` to the UI.
 */
import type {
  ConnectionMode,
  ConnectionUpdate,
  ConnectionView,
  CoreMessage,
  NewConnection,
} from '@shared/models';
import type { Connector, ConnectorInit } from '../connectors/connector';
import { CairnError, isAbortError } from '../errors';
import type { ConnectionEventBus } from '../events/connection-events';
import type { EventBus } from '../events/event-bus';
import type { Logger } from '../logging/logger';
import { announceConnections } from './announce';
import type { ConnectionConnectors } from './connection-connectors';
import { checkNewConnection, parseConnectionUpdate, planConnectionEdit } from './connection-fields';
import type { ConnectionRepository } from './connection-repository';
import type { ConnectionSecrets } from './connection-secrets';
import { DraftSecrets } from './draft-secrets';

/** What an edit of a connection's access needs from the sync service: no sync of it runs meanwhile. */
export interface SyncGuard {
  /** Runs `edit` while no sync of the connection runs or can start; throws ALREADY_SYNCING when one runs. */
  withoutSync<T>(connectionId: string, edit: () => Promise<T>): Promise<T>;
}

export interface ConnectionServiceDeps {
  repository: ConnectionRepository;
  secrets: ConnectionSecrets;
  connectors: ConnectionConnectors;
  lifecycle: ConnectionEventBus;
  /** @default edits run directly (no sync service, as in unit tests) */
  sync?: SyncGuard;
  events?: EventBus;
  logger: Logger;
  /** "Test connection" gives up after this long. @default 15000 */
  testTimeoutMs?: number;
}

export class ConnectionService {
  private readonly drafts = new DraftSecrets();

  constructor(private readonly deps: ConnectionServiceDeps) {}

  list(): Promise<ConnectionView[]> {
    return this.deps.repository.list();
  }

  async add(input: NewConnection): Promise<ConnectionView> {
    const checked = checkNewConnection(input);
    // A "Test connection" before Add may have rotated a single-use token the form still holds.
    const clean = { ...checked, secrets: this.drafts.take(checked.platform, checked.secrets) };
    const hasSecrets = Object.keys(clean.secrets).length > 0;
    // A platform that gives this connection no full text could only fail to sync it: direct from the start.
    const directOnly = this.deps.repository.directOnly(
      clean.platform,
      clean.config,
      Object.keys(clean.secrets),
    );
    const view = await this.deps.repository.create({
      platform: clean.platform,
      name: clean.name,
      mode: directOnly ? 'direct' : clean.mode,
      config: clean.config,
      hasSecrets,
    });
    if (hasSecrets) {
      try {
        await this.deps.secrets.save(view.id, clean.secrets);
      } catch (error) {
        await this.deps.repository.remove(view.id); // no connection without its credentials
        throw error;
      }
    }
    await this.announce();
    return this.deps.repository.get(view.id);
  }

  async test(id: string, signal?: AbortSignal): Promise<CoreMessage> {
    const connector = await this.deps.connectors.forConnection(id);
    const answer = await this.validate(connector, signal);
    // Working credentials end a failure that was about reaching the platform (not before).
    if (await this.deps.repository.clearAccessFailure(id)) await this.announce();
    return answer;
  }

  async testNew(input: NewConnection, signal?: AbortSignal): Promise<CoreMessage> {
    const clean = checkNewConnection(input);
    const secrets = this.drafts.current(clean.platform, clean.secrets);
    this.deps.secrets.redact({ ...clean.secrets, ...secrets });
    const init: ConnectorInit = {
      config: clean.config,
      secrets,
      logger: this.deps.logger.child(clean.platform),
      saveSecrets: async (rotated) => {
        this.deps.secrets.redact(rotated);
        this.drafts.remember(clean.platform, clean.secrets, rotated);
      },
    };
    return this.validate(this.deps.connectors.build(clean.platform, init), signal);
  }

  async setMode(id: string, mode: ConnectionMode): Promise<ConnectionView> {
    if (mode === 'rag') {
      const view = await this.deps.repository.get(id);
      if (view.directOnly) {
        const why = (view.limitation ?? 'the platform gives it no full text').replace(/[.\s]+$/, '');
        throw new CairnError(
          'UNSUPPORTED',
          `"${view.name}" cannot be indexed: ${why}. It is searched live (direct mode) only.`,
        );
      }
    }
    await this.deps.repository.setMode(id, mode);
    // The mode changes first, so no new sync can start while listeners stop the running one.
    await this.deps.lifecycle.publish('modeChanged', { connectionId: id, mode });
    await this.announce();
    return this.deps.repository.get(id);
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
    const stored = await this.deps.secrets.readForEdit(view.id);
    const sent = { ...update, secrets: this.drafts.take(draftKey(view), update.secrets ?? {}) };
    const edit = planConnectionEdit(view, stored.values, sent);
    this.deps.secrets.redact(edit.secrets);
    const secretsChange = Object.keys(edit.givenSecrets).length + edit.clearedSecrets.length > 0;
    const ref = stored.ref;
    // Every platform with secret fields requires one, so its connections were created with a ref.
    if (secretsChange && !ref)
      throw new CairnError('INTERNAL', `Connection ${view.id} has no secret reference.`);
    const save = async () => {
      if (secretsChange && ref) await this.deps.secrets.writeRef(ref, edit.secrets);
      try {
        await this.deps.repository.update(view.id, { name: edit.name, config: edit.config });
      } catch (error) {
        // The row kept its old settings: put the old credentials back so the two still match.
        if (secretsChange && ref) await this.deps.secrets.writeRef(ref, stored.values);
        throw error;
      }
    };
    if (edit.changesAccess) {
      await (this.deps.sync ? this.deps.sync.withoutSync(view.id, save) : save());
      await this.deps.lifecycle.publish('credentialsChanged', { connectionId: view.id });
    } else await save();
    await this.announce();
    return this.deps.repository.get(view.id);
  }

  /** Tests an edit before it is saved: the edited fields with the stored secrets, which never leave core. */
  async testUpdate(input: ConnectionUpdate, signal?: AbortSignal): Promise<CoreMessage> {
    const update = parseConnectionUpdate(input);
    const view = await this.deps.repository.get(update.id);
    const stored = await this.deps.secrets.readForEdit(view.id);
    const sentSecrets = update.secrets ?? {};
    const edit = planConnectionEdit(view, stored.values, {
      ...update,
      secrets: this.drafts.current(draftKey(view), sentSecrets),
    });
    this.deps.secrets.redact(edit.secrets);
    const init: ConnectorInit = {
      config: edit.config,
      secrets: edit.secrets,
      logger: this.deps.logger.child(view.platform),
      // A single-use token rotated while testing: one that came from the store is spent there,
      // so the store gets the new one now; one the form sent is remembered for the Save.
      saveSecrets: async (rotated) => {
        this.deps.secrets.redact(rotated);
        const changed = Object.entries(rotated).filter(([key, value]) => edit.secrets[key] !== value);
        const fromForm = Object.fromEntries(changed.filter(([key]) => key in edit.givenSecrets));
        const fromStore = Object.fromEntries(changed.filter(([key]) => !(key in edit.givenSecrets)));
        if (stored.ref && Object.keys(fromStore).length > 0)
          await this.deps.secrets.merge(view.id, fromStore);
        if (Object.keys(fromForm).length > 0) this.drafts.remember(draftKey(view), sentSecrets, fromForm);
      },
    };
    return this.validate(this.deps.connectors.build(view.platform, init), signal);
  }

  async remove(id: string): Promise<void> {
    await this.deps.repository.get(id);
    await this.deps.lifecycle.publish('removing', { connectionId: id });
    const { secretRef } = await this.deps.repository.remove(id);
    if (secretRef) await this.deps.secrets.deleteRef(secretRef);
    await this.deps.lifecycle.publish('removed', { connectionId: id });
    await this.announce();
  }

  private async validate(connector: Connector, signal?: AbortSignal): Promise<CoreMessage> {
    const timeoutMs = this.deps.testTimeoutMs ?? 15_000;
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      // The connector's sentence names what it found; the code lets the UI headline it in its
      // language, and a connector's own code and params let it say the details too.
      const found = await connector.validate(combined);
      return typeof found === 'string'
        ? { message: found, code: 'connection.ok', params: { platform: connector.platform } }
        : { ...found, params: { platform: connector.platform, ...found.params } };
    } catch (error) {
      if (timeout.aborted && !signal?.aborted && isAbortError(error)) {
        throw new CairnError('TIMEOUT', `No answer within ${+(timeoutMs / 1000).toFixed(1)} s.`);
      }
      throw error;
    } finally {
      await connector.dispose?.();
    }
  }

  private announce(): Promise<void> {
    return announceConnections(this.deps.events, this.deps.repository);
  }
}

/** Drafts of an edit are kept apart per connection (a new connection's are per platform). */
function draftKey(view: ConnectionView): string {
  return `${view.platform}:${view.id}`;
}
