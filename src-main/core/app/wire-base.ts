/**
 * The first step of the composition root: the data directory (owner-only, locked), the logger, the
 * database, the secret store, the event buses and the settings. Every later step builds on these.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabaseFolder, type Db } from '../db/database';
import { EventBus } from '../events/event-bus';
import { SettingsEventBus } from '../events/settings-events';
import { createLogger, SecretRedactor, type Logger } from '../logging/logger';
import { chooseSecretStore } from '../secrets/choose-secret-store';
import { MemorySecretStore, type SecretStore } from '../secrets/secret-store';
import { SettingsRepository } from '../settings/settings-repository';
import type { CreateCairnOptions } from './cairn';
import { acquireDataDirLock, dataDirLayout, type DataDirLayout } from './data-dir';
import { ManifestKeeper, readManifest, restoreFromManifest } from './data-manifest';
import type { Disposers } from './disposers';
import {
  assertOwnedByUser,
  makeFolderPrivate,
  PRIVATE_DIR_MODE,
  PrivateTreeKeeper,
  restrictUmask,
} from './private-data-dir';

export interface Base {
  env: NodeJS.ProcessEnv;
  /** The on-disk data directory, or null for an in-memory instance. */
  dataDir: string | null;
  layout: DataDirLayout | null;
  logger: Logger;
  redactor: SecretRedactor;
  /** The redactor as a function: every message that may quote a credential passes it. */
  redact: (text: string) => string;
  db: Db;
  secretStore: SecretStore;
  /** Pushed to the UI, the CLI and MCP clients. */
  events: EventBus;
  /** `settings.changed`: the services whose work a change re-plans subscribe. */
  settingsEvents: SettingsEventBus;
  settings: SettingsRepository;
  /** Keeps the data directory owner-only; null in memory. */
  privacy: PrivateTreeKeeper | null;
  disposers: Disposers;
}

export async function wireBase(options: CreateCairnOptions, disposers: Disposers): Promise<Base> {
  const env = options.env ?? process.env;
  const redactor = options.redactor ?? new SecretRedactor();
  const dataDir = options.dataDir ?? null;
  const layout = dataDir ? dataDirLayout(dataDir) : null;
  if (layout) {
    restrictUmask();
    mkdirSync(layout.root, { recursive: true, mode: PRIVATE_DIR_MODE });
    assertOwnedByUser(layout.root, 'data directory', { followLinks: true });
    const lock = await acquireDataDirLock(layout.root);
    // Pushed first, so it is let go last, after the database has closed.
    disposers.push(() => lock.release());
  }
  const logger = options.logger ?? defaultLogger(layout?.logs ?? null, redactor);
  disposers.logTo(logger);
  const privacy = layout ? keepPrivate(layout.root, logger, disposers, !options.oneShotRead) : null;
  // The keychain probe waits on the OS (D-Bus on Linux: a second or more when no keychain answers)
  // while PGlite's start-up keeps this thread busy: both run at once rather than one after the other.
  const choosingSecrets =
    options.secretStore || !layout
      ? null
      : chooseSecretStore({
          dataDir: layout.root,
          secretsFile: layout.secrets,
          env,
          logger: logger.child('secrets'),
        });
  choosingSecrets?.catch(() => undefined); // awaited below; this only keeps an early failure of the database from leaving it unhandled
  const manifest = layout ? readManifest(layout.manifest, logger.child('manifest')) : null;
  const { db } = await openDatabaseFolder(
    layout
      ? {
          dataDir: layout.database,
          keepUnusedDatabases: options.oneShotRead ?? false,
          // A new database (first start, or one recovered after a loss) gets back the connections.
          ...(manifest ? { seed: (fresh: Db) => restoreFromManifest(fresh, manifest).then(() => {}) } : {}),
        }
      : {},
  );
  disposers.push(() => db.close());
  const secretStore =
    options.secretStore ?? (choosingSecrets ? await choosingSecrets : new MemorySecretStore());
  const events = new EventBus();
  // PGlite writes its files 0666: each sync and re-embed ends with the data dir made owner-only again.
  // A re-embed ends where a status that said it runs is followed by one that says it stopped: the
  // status is also sent when nothing ran (every start, keyword search only), and a sweep then was
  // a walk of the whole tree in every one-shot command.
  disposers.push(events.on('sync.finished', () => void privacy?.request()));
  let reembedding = false;
  disposers.push(
    events.on('reindex.progress', (status) => {
      if (status.running) reembedding = true;
      else if (reembedding) {
        reembedding = false;
        void privacy?.request();
      }
    }),
  );
  const settingsEvents = new SettingsEventBus();
  const settings = new SettingsRepository(db, secretStore, settingsEvents);
  if (layout) keepManifest(layout.manifest, db, events, settingsEvents, logger, disposers);
  const redact = (text: string) => redactor.redact(text);
  return {
    env,
    dataDir,
    layout,
    logger,
    redactor,
    redact,
    db,
    secretStore,
    events,
    settingsEvents,
    settings,
    privacy,
    disposers,
  };
}

/**
 * `sweepOpenClose` false (a one-shot read): only the directory itself is made owner-only, which
 * already keeps other users out of every file below it; the whole-tree sweeps (the libuv thread
 * pool's lstat and chmod of ~500–1,000 files, which a search's own reads queue behind) are left to
 * the next process that writes or stays open. Syncs run through this process still sweep after.
 */
function keepPrivate(
  root: string,
  logger: Logger,
  disposers: Disposers,
  sweepOpenClose: boolean,
): PrivateTreeKeeper {
  const onError = (error: unknown) => logger.warn('could not make the data directory private', { error });
  const keeper = new PrivateTreeKeeper(root, onError);
  if (!sweepOpenClose) {
    makeFolderPrivate(root, onError);
    return keeper;
  }
  // Not awaited: the sweep (a chmod walk of every file PGlite keeps, 0.3–1 s on a loaded machine)
  // tightens what an older version left loose while the database starts; files made from here on
  // are owner-only through the umask, and dispose waits for the sweep (docs/decisions/cli-startup.md).
  void keeper.request();
  // Runs after the database has closed (disposers run in reverse): its last writes are private too.
  disposers.push(() => keeper.request());
  return keeper;
}

/**
 * The data manifest (connections without secrets, settings rows) kept current outside the database,
 * so a lost database loses only the index (data-manifest.ts): rewritten when the connections or the
 * settings change.
 */
function keepManifest(
  path: string,
  db: Db,
  events: EventBus,
  settingsEvents: SettingsEventBus,
  logger: Logger,
  disposers: Disposers,
): void {
  const keeper = new ManifestKeeper({ db, path, events, logger: logger.child('manifest') });
  void keeper.refresh();
  disposers.push(() => keeper.dispose());
  disposers.push(settingsEvents.on('settings.changed', () => void keeper.refresh()));
}

/** Logs go to a daily file in the data dir's logs/ folder (never to stdout, which belongs to the CLI's output). */
function defaultLogger(logsDir: string | null, redactor: SecretRedactor): Logger {
  if (!logsDir) return createLogger({ redactor, level: 'warn' });
  try {
    mkdirSync(logsDir, { recursive: true, mode: 0o700 });
  } catch {
    // A full disk (or a read-only one) costs the log, never the start: the lines that cannot be
    // written are counted (logger.ts).
  }
  const file = join(logsDir, `cairn-${new Date().toISOString().slice(0, 10)}.log`);
  return createLogger({
    redactor,
    level: 'info',
    sink: (line) => appendFileSync(file, line + '\n', { mode: 0o600 }),
  });
}
