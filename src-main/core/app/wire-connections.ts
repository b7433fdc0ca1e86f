/**
 * Connections: the repository (built here and nowhere else), their secrets, the connectors built
 * from them, the lifecycle events through which other services learn what happened to one, and
 * the state the cards show beside the rows (a waiting sign-in, a watched folder).
 */
import { ConnectionConnectors } from '../connections/connection-connectors';
import { ConnectionRepository } from '../connections/connection-repository';
import { ConnectionSecrets, secretFieldNames } from '../connections/connection-secrets';
import { SignInFlows } from '../connections/sign-in-flows';
import { connectionDirectOnly, connectionLimitation, supportsUserSignIn } from '../connectors/registry';
import { ConnectionEventBus } from '../events/connection-events';
import { FolderWatchStates } from '../sync/folder-watch-service';
import type { CreateCairnOptions } from './cairn';
import type { Base } from './wire-base';

export interface ConnectionsWiring {
  repository: ConnectionRepository;
  secrets: ConnectionSecrets;
  connectors: ConnectionConnectors;
  lifecycle: ConnectionEventBus;
  signInFlows: SignInFlows;
  /** The watched folders' state, written by the folder watch service; null when folders are not watched. */
  folderStates: FolderWatchStates | null;
}

/** Local folders are watched where syncs are scheduled (the app, `cairn serve`), unless told otherwise. */
export function watchesFolders(options: CreateCairnOptions): boolean {
  return options.watchFolders ?? options.scheduler !== false;
}

export function wireConnections(base: Base, options: CreateCairnOptions): ConnectionsWiring {
  const { db, secretStore, logger, redactor } = base;
  const lifecycle = new ConnectionEventBus();
  const signInFlows = new SignInFlows();
  const folderStates = watchesFolders(options) ? new FolderWatchStates() : null;
  const repository = new ConnectionRepository(db, {
    ...(folderStates ? { folderStateOf: folderStates.stateOf.bind(folderStates) } : {}),
    secretFieldsOf: (ref) => secretFieldNames(secretStore, ref),
    limitationOf: (platform, config, secretFields) => connectionLimitation(platform, config, secretFields),
    directOnlyOf: (platform, config, secretFields) => connectionDirectOnly(platform, config, secretFields),
    userAuthOf: (id, platform, secretFields, lost) =>
      signInFlows.stateOf(id, supportsUserSignIn(platform), secretFields, lost),
  });
  const secrets = new ConnectionSecrets(secretStore, repository, logger.child('secrets'), redactor);
  const connectors = new ConnectionConnectors({
    repository,
    secrets,
    lifecycle,
    logger: logger.child('connections'),
    ...(options.factories ? { factories: options.factories } : {}),
  });
  return { repository, secrets, connectors, lifecycle, signInFlows, folderStates };
}
