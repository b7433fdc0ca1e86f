/**
 * The `connections` domain of the contract: validates new connections against PLATFORM_INFO,
 * keeps secrets in the SecretStore (never in the table, logs or views), builds connectors for a
 * connection, and announces every change as `connections.changed`.
 */
import { z } from 'zod';
import type { CairnApi } from '../../../src-shared/contract';
import type { ConnectionMode, ConnectionView, NewConnection } from '../../../src-shared/models';
import { PLATFORMS } from '../../../src-shared/models';
import { PLATFORM_INFO } from '../../../src-shared/platforms';
import type { Connector, ConnectorInit } from '../connectors/connector';
import { createConnector, defaultConnectorFactories, type ConnectorFactories } from '../connectors/registry';
import { CairnError, isAbortError, toResult } from '../errors';
import type { Logger, SecretRedactor } from '../logging/logger';
import type { SecretStore } from '../secrets/secret-store';
import type { ConnectionRepository } from './connection-repository';
import { DraftSecrets } from './draft-secrets';
import type { EventBus } from './event-bus';
import { parseInput } from './validation';

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
  /** "Test connection" gives up after this long. @default 15000 */
  testTimeoutMs?: number;
}

const newConnectionSchema = z
  .object({
    platform: z.enum(PLATFORMS),
    name: z.string(),
    mode: z.enum(['rag', 'direct']),
    config: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    secrets: z.record(z.string(), z.string()),
  })
  .strict();

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
    const view = await this.deps.repository.create({ platform: clean.platform, name: clean.name, mode: clean.mode, config: clean.config, hasSecrets });
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
    return this.validate(connector, signal);
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
    const init: ConnectorInit = {
      config: view.config,
      secrets,
      logger: this.deps.logger.child(view.platform),
      // OAuth refresh-token rotation: the new token replaces the old one at once.
      saveSecrets: async (rotated) => {
        if (!ref) throw new CairnError('INTERNAL', `Connection ${id} has no secret reference.`);
        this.deps.redactor?.register(...Object.values(rotated));
        await this.deps.secrets.set(ref, { ...((await this.deps.secrets.get(ref)) ?? {}), ...rotated });
      },
    };
    return createConnector(view.platform, init, this.factories);
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

/** Checks a new connection against its platform's declared fields; secrets never sit in config. */
export function checkNewConnection(input: NewConnection): NewConnection {
  const parsed = parseInput(newConnectionSchema, input, 'connection');
  const info = PLATFORM_INFO[parsed.platform];
  const config: NewConnection['config'] = {};
  for (const [key, value] of Object.entries(parsed.config)) if (value !== '') config[key] = typeof value === 'string' ? value.trim() : value;
  for (const field of info.fields) {
    // A checkbox option is a boolean; "true"/"false" from a hand-written request mean the same.
    const value = config[field.key];
    if (field.type === 'boolean' && (value === 'true' || value === 'false')) config[field.key] = value === 'true';
  }
  const secrets: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed.secrets)) if (value.trim() !== '') secrets[key] = value.trim();

  const problems: string[] = [];
  for (const field of info.fields) {
    const inConfig = config[field.key] !== undefined;
    const inSecrets = secrets[field.key] !== undefined;
    if (field.secret && inConfig) problems.push(`${field.key} is a secret and belongs in secrets, not config`);
    if (!field.secret && inSecrets) problems.push(`${field.key} is not a secret and belongs in config`);
    if (field.required && !(field.secret ? inSecrets : inConfig)) problems.push(`${field.label.en} (${field.flag}) is required`);
    if (field.type === 'boolean' && inConfig && typeof config[field.key] !== 'boolean') problems.push(`${field.key} must be true or false`);
  }
  for (const key of Object.keys(secrets)) if (!info.fields.some((field) => field.key === key)) problems.push(`unknown secret field "${key}"`);
  const baseUrl = config['baseUrl'];
  if (baseUrl !== undefined && (typeof baseUrl !== 'string' || !/^https?:\/\/[^\s/]+/.test(baseUrl))) problems.push('baseUrl must be an http(s) URL');
  const path = config['path'];
  if (parsed.platform === 'folder' && typeof path === 'string' && !/^([/\\]|[A-Za-z]:[/\\])/.test(path)) problems.push('path must be an absolute folder path');
  if (problems.length > 0) throw new CairnError('INVALID_ARGUMENT', `Invalid ${info.label.en} connection: ${problems.join('; ')}.`);
  return { ...parsed, config, secrets };
}

/** The contract's `connections` domain over the service: every failure becomes data. */
export function connectionsApi(service: ConnectionService): CairnApi['connections'] {
  return {
    list: () => toResult(() => service.list()),
    add: (input) => toResult(() => service.add(input)),
    test: (input) => toResult(() => service.test(input.id)),
    testNew: (input) => toResult(() => service.testNew(input)),
    setMode: (input) => toResult(() => service.setMode(input.id, input.mode)),
    rename: (input) => toResult(() => service.rename(input.id, input.name)),
    remove: (input) => toResult(() => service.remove(input.id)),
  };
}
