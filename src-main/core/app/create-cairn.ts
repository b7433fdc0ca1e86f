/**
 * The one composition root (STYLE.md §3): builds every service over one database and wires
 * their dependencies. The Electron entry, the headless host, the CLI and the tests all call it.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CairnApi } from '@shared/contract';
import { ChatService } from '../chat/chat-service';
import { ConversationRepository } from '../chat/conversation-repository';
import { createChatModelResolver } from '../chat/openai-chat-model';
import { connectionLimitation, supportsUserSignIn, type ConnectorFactories } from '../connectors/registry';
import { openDatabase, type Db } from '../db/database';
import { createEmbedder, embeddingSettingsFromEnv } from '../embedding/create-embedder';
import { DocumentReader } from '../index/document-reader';
import { PgDocumentStore } from '../index/pg-document-store';
import { createLogger, SecretRedactor, type Logger } from '../logging/logger';
import { HybridSearch } from '../search/hybrid-search';
import { vectorTuning } from '../search/search-tuning';
import { FileSecretStore } from '../secrets/file-secret-store';
import { MemorySecretStore, type SecretStore } from '../secrets/secret-store';
import { SyncScheduler } from '../sync/scheduler';
import { SyncEngine } from '../sync/sync-engine';
import { SyncLock } from '../sync/sync-lock';
import { closeAbandonedRuns } from '../sync/sync-runs';
import { appApi } from './app-api';
import { chatApi } from './chat-api';
import { connectionsApi } from './connections-api';
import { documentsApi } from './documents-api';
import { checkoutLaunch, mcpApi, type McpLaunch } from './mcp-api';
import { searchApi } from './search-api';
import { settingsApi } from './settings-api';
import { syncApi } from './sync-api';
import type { Cairn } from './cairn';
import { CAIRN_VERSION } from './version';
import { ConnectionRepository } from '../connections/connection-repository';
import { ConnectionService } from '../connections/connection-service';
import { acquireDataDirLock, dataDirLayout, type DataDirLock } from './data-dir';
import { DirectSources } from '../connections/direct-sources';
import { EmbeddingService } from '../embedding/embedding-service';
import { EventBus } from '../events/event-bus';
import { redactFailures } from './redact-failures';
import { SettingsRepository } from '../settings/settings-repository';
import { SpaceSettingsStore } from '../settings/space-settings';
import { SyncService } from '../sync/sync-service';
import { UserAuthService } from '../connections/user-auth-service';
import { FolderWatchService } from '../sync/folder-watch-service';
import { parcelWatch, type WatchFolder } from '../sync/folder-watcher';

export { CAIRN_VERSION } from './version';

export interface CreateCairnOptions {
  /** On-disk data directory (locked against a second process); omit for an in-memory instance. */
  dataDir?: string | null;
  /** @default FileSecretStore in the data dir, or memory for an in-memory instance. Electron passes its safeStorage store. */
  secretStore?: SecretStore;
  /** Environment for headless overrides (CAIRN_EMBED_*, CAIRN_CHAT_*). @default process.env */
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
  /** Shared with the logger so connector secrets read later are redacted from every line. */
  redactor?: SecretRedactor;
  /** Connector implementations (tests inject fakes' tuned connectors). @default the registry's */
  factories?: ConnectorFactories;
  /** Run the 24 h scheduler (and catch up overdue connections at start). @default true */
  scheduler?: boolean;
  /** How AI tools start `cairn mcp` (Settings shows it; its Test runs it). @default npx --prefix <checkout> cairn */
  mcpLaunch?: McpLaunch;
  /** Direct-mode search timeout per platform. @default 3000 */
  directTimeoutMs?: number;
  /**
   * Watch local folders and sync their changes as they happen. @default as `scheduler`: the app and
   * `cairn serve` watch; one-shot CLI commands and tests that turn the scheduler off do not.
   */
  watchFolders?: boolean;
  /** The file-system watcher (tests inject a failing one). @default @parcel/watcher */
  watchFolder?: WatchFolder;
  /** The shell's native folder picker (Electron's dialog). @default none: `app.pickFolder` is UNSUPPORTED */
  pickFolder?: () => Promise<string | null>;
}

export interface CairnInternals extends Cairn {
  /** Resolves when running syncs and a running re-embed have finished (tests, CLI). */
  whenIdle(): Promise<void>;
  logger: Logger;
  secrets: SecretStore;
  /** The open database (tests and diagnostics read it; the app goes through `api`). */
  db: Db;
}

export async function createCairn(options: CreateCairnOptions = {}): Promise<CairnInternals> {
  const env = options.env ?? process.env;
  const redactor = options.redactor ?? new SecretRedactor();
  const dataDir = options.dataDir ?? null;
  const layout = dataDir ? dataDirLayout(dataDir) : null;
  let lock: DataDirLock | null = null;
  if (layout) {
    mkdirSync(layout.root, { recursive: true });
    lock = await acquireDataDirLock(layout.root);
  }
  const logger = options.logger ?? defaultLogger(layout?.logs ?? null, redactor);
  const disposers: (() => Promise<void> | void)[] = [];
  try {
    const db = await openDatabase(layout ? { dataDir: layout.database } : {});
    disposers.push(() => db.close());
    const secrets =
      options.secretStore ?? (layout ? new FileSecretStore(layout.secrets) : new MemorySecretStore());
    const events = new EventBus();
    await closeAbandonedRuns(db);

    let userAuth: UserAuthService | null = null;
    let folderWatch: FolderWatchService | null = null;
    const repository = new ConnectionRepository(db, {
      folderStateOf: (view) => folderWatch?.stateOf(view),
      secretFieldsOf: async (ref) => Object.keys((await secrets.get(ref)) ?? {}),
      limitationOf: (platform, config, secretFields) => connectionLimitation(platform, config, secretFields),
      userAuthOf: (id, platform, secretFields, lost) =>
        userAuth?.stateOf(id, supportsUserSignIn(platform), secretFields, lost),
    });
    const settings = new SettingsRepository(db, secrets);
    const embeddings = new EmbeddingService({
      db,
      events,
      logger: logger.child('embedding'),
      // CAIRN_EMBED_* (headless runs, CI) replace the stored embedding settings for this run.
      configuredEmbedder: async () => {
        const fromEnv = embeddingSettingsFromEnv(env);
        const stored = (await settings.get()).embedding;
        const chosen = fromEnv ?? { ...stored, apiKey: (await settings.apiKey('embedding')) ?? undefined };
        redactor.register(chosen.apiKey);
        return { embedder: createEmbedder(chosen), settings: chosen };
      },
      spaceSettings: new SpaceSettingsStore(db, secrets, (key) => redactor.register(key)),
    });
    await embeddings.start();
    disposers.push(() => embeddings.dispose());

    const store = new PgDocumentStore(db, { logger: logger.child('index') });
    const redact = (text: string) => redactor.redact(text);
    const engine = new SyncEngine({
      db,
      store,
      lock: new SyncLock(db),
      logger: logger.child('sync'),
      redact,
    });
    let syncService: SyncService | null = null;
    const connectionService = new ConnectionService({
      repository,
      secrets,
      logger: logger.child('connections'),
      events,
      redactor,
      ...(options.factories ? { factories: options.factories } : {}),
      beforeRemove: async (id) => {
        await syncService?.cancel(id);
        await userAuth?.cancel(id);
      },
      afterSwitchToDirect: async (id) => {
        await syncService?.cancel(id);
      },
      withoutSync: (id, edit) => (syncService ? syncService.withoutSync(id, edit) : edit()),
      afterAccessChange: async (id) => {
        await userAuth?.credentialsChanged(id);
        await direct.invalidate(id);
      },
      onUserAuthLost: (id) => userAuth?.markLost(id),
    });
    syncService = new SyncService({
      db,
      engine,
      connections: connectionService,
      repository,
      embeddings,
      events,
      logger: logger.child('sync'),
    });
    disposers.push(() => syncService?.dispose());

    // Direct-mode connections, updated whenever connections change.
    const direct = new DirectSources((id) => connectionService.connectorFor(id), logger.child('direct'));
    direct.update(await repository.list());
    disposers.push(events.on('connections.changed', (views) => direct.update(views)));
    disposers.push(() => direct.dispose());

    userAuth = new UserAuthService({
      connectorFor: (id) => connectionService.connectorFor(id),
      viewOf: (id) => repository.get(id),
      storeSecrets: (id, patch) => connectionService.storeSecrets(id, patch),
      setUserAuthLost: (id, lost) => repository.setUserAuthLost(id, lost),
      announce: () => connectionService.announceChanged(),
      // The cached direct-search connector still holds no (or the old) refresh token.
      afterSignIn: (id) => direct.invalidate(id),
      // A running sync holds the authorisation and would keep rotating it: sign-out stops it first.
      clearSecrets: async (id, fields) => {
        await syncService?.cancel(id);
        return connectionService.update({ id, clearSecrets: fields });
      },
      events,
      logger: logger.child('sign-in'),
      redact: (text) => redactor.redact(text),
    });
    const signIn = userAuth;
    disposers.push(() => signIn.dispose());

    const search = new HybridSearch({
      db,
      queryEmbedder: (space) => embeddings.forSpace(space),
      minVectorSimilarity: (space) => vectorTuning(space).minSimilarity,
      vectorWeight: (space) => vectorTuning(space).weight,
      directSources: () => direct.list(),
      redact,
      ...(options.directTimeoutMs ? { directTimeoutMs: options.directTimeoutMs } : {}),
      logger: logger.child('search'),
    });

    const chat = new ChatService({
      search,
      conversations: new ConversationRepository(db),
      events,
      resolveModel: createChatModelResolver(async () => {
        const apiKey = await settings.apiKey('chat');
        redactor.register(apiKey, env.CAIRN_CHAT_API_KEY);
        return { settings: (await settings.get()).chat, apiKey, env };
      }),
      topK: async () => (await settings.get()).chat.topK,
      logger: logger.child('chat'),
    });
    disposers.push(() => chat.dispose());

    const documents = new DocumentReader(db);

    let scheduler: SyncScheduler | null = null;
    const appDeps = {
      version: CAIRN_VERSION,
      dataDir,
      repository,
      settings,
      embeddings,
      sync: syncService,
      ...(options.pickFolder ? { pickFolder: options.pickFolder } : {}),
    };
    const settingsDeps = {
      db,
      settings,
      embeddings,
      onScheduleSettingsChanged: async () => {
        await scheduler?.refresh();
      },
    };
    // In-process callers can stop long calls with a signal; the transports use the plain api.
    const buildApi = (signal?: AbortSignal): CairnApi =>
      redactFailures(
        {
          app: appApi(appDeps),
          connections: connectionsApi(connectionService, signIn, signal),
          sync: syncApi(syncService),
          search: searchApi(search, signal),
          documents: documentsApi(documents),
          mcp: mcpApi({ launch: options.mcpLaunch ?? checkoutLaunch(), dataDir, documents }),
          chat: chatApi(chat),
          settings: settingsApi(settingsDeps),
        },
        redact,
      );
    const api = buildApi();

    if (options.scheduler !== false) {
      scheduler = new SyncScheduler({
        store: repository,
        settings: () => settings.get(),
        startSync: (connectionId) => api.sync.start({ connectionId }),
        events,
        logger: logger.child('scheduler'),
      });
      disposers.push(await scheduler.start());
    }

    if (options.watchFolders ?? options.scheduler !== false) {
      const sync = syncService;
      folderWatch = new FolderWatchService({
        events,
        listConnections: () => repository.list(),
        startSync: (connectionId) => sync.start(connectionId),
        announce: () => connectionService.announceChanged(),
        watch: options.watchFolder ?? parcelWatch,
        logger: logger.child('watch'),
      });
      disposers.push(await folderWatch.start());
    }

    let disposed = false;
    return {
      api,
      cancellable: (signal) => buildApi(signal),
      events,
      dataDir,
      logger,
      secrets,
      db,
      whenIdle: async () => {
        await syncService?.whenIdle();
        await embeddings.whenIdle();
      },
      dispose: async () => {
        if (disposed) return;
        disposed = true;
        await runDisposers(disposers, logger);
        await lock?.release();
      },
    };
  } catch (error) {
    await runDisposers(disposers, logger);
    await lock?.release();
    throw error;
  }
}

/** Disposes in reverse order of creation: the database, created first, closes last. */
async function runDisposers(disposers: (() => Promise<void> | void)[], logger: Logger): Promise<void> {
  for (const dispose of disposers.reverse()) {
    try {
      await dispose();
    } catch (error) {
      logger.error('dispose failed', { error });
    }
  }
  disposers.length = 0;
}

/** Logs go to a daily file in the data dir's logs/ folder (never to stdout, which belongs to the CLI's output). */
function defaultLogger(logsDir: string | null, redactor: SecretRedactor): Logger {
  if (!logsDir)
    return createLogger({ redactor, level: 'warn', sink: (line) => process.stderr.write(line + '\n') });
  mkdirSync(logsDir, { recursive: true, mode: 0o700 });
  const file = join(logsDir, `cairn-${new Date().toISOString().slice(0, 10)}.log`);
  return createLogger({
    redactor,
    level: 'info',
    sink: (line) => appendFileSync(file, line + '\n', { mode: 0o600 }),
  });
}
