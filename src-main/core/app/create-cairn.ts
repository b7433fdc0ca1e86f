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
import {
  connectionDirectOnly,
  connectionLimitation,
  supportsUserSignIn,
  type ConnectorFactories,
} from '../connectors/registry';
import { openDatabaseFolder, type Db } from '../db/database';
import {
  createEmbedder,
  embeddingSettingsFromEnv,
  type EmbeddingSettings,
} from '../embedding/create-embedder';
import { toResult } from '../errors';
import { DocumentReader } from '../index/document-reader';
import { PgDocumentStore } from '../index/pg-document-store';
import { createLogger, SecretRedactor, type Logger } from '../logging/logger';
import { HybridSearch } from '../search/hybrid-search';
import { vectorTuning } from '../models/search-tuning';
import { chooseSecretStore } from '../secrets/choose-secret-store';
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
import { ConnectionConnectors } from '../connections/connection-connectors';
import { ConnectionSecrets, secretFieldNames } from '../connections/connection-secrets';
import { assertOwnedByUser, PRIVATE_DIR_MODE, PrivateTreeKeeper, restrictUmask } from './private-data-dir';
import { DirectSources } from '../connections/direct-sources';
import { SignInFlows } from '../connections/sign-in-flows';
import { EmbeddingService } from '../spaces/embedding-service';
import { ConnectionEventBus } from '../events/connection-events';
import { EventBus } from '../events/event-bus';
import { redactFailures } from './redact-failures';
import { SettingsRepository } from '../settings/settings-repository';
import { SpaceSettingsStore } from '../spaces/space-settings';
import { SyncService } from '../sync/sync-service';
import { UserAuthService } from '../connections/user-auth-service';
import { announceConnections } from '../connections/announce';
import { FolderWatchService } from '../sync/folder-watch-service';
import { parcelWatch, type WatchFolder } from '../sync/folder-watcher';
import { reindexCost } from '../spaces/reindex-job';
import { LOCAL_PROVIDER } from '../models/runtime-specs';
import type { SettingsView } from '@shared/models';
import { createLocalModelServices, rerankerSettings, type LocalModelWiring } from './local-models-wiring';
import { modelsApi } from './models-api';
import { temporaryFolder } from './temporary-folder';
import { ManifestKeeper, readManifest, restoreFromManifest } from './data-manifest';

export { CAIRN_VERSION } from './version';

export interface CreateCairnOptions {
  /** On-disk data directory (locked against a second process); omit for an in-memory instance. */
  dataDir?: string | null;
  /**
   * @default the OS keychain, or an owner-only file in the data dir where there is none
   * (secrets/choose-secret-store.ts); memory for an in-memory instance. Electron passes its safeStorage store.
   */
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
  /** Where local models are installed. @default <dataDir>/models, or a temporary folder in memory */
  modelsDir?: string;
  /** Worker entry for local models (tests of the bundled worker). @default WorkerHost's */
  workerEntry?: string;
  /** Where to look for Ollama (tests point it at the fake). @default http://127.0.0.1:11434 */
  ollamaBaseUrl?: string;
}

export interface CairnInternals extends Cairn {
  /** Resolves when running syncs and a running re-embed have finished (tests, CLI). */
  whenIdle(): Promise<void>;
  logger: Logger;
  secrets: SecretStore;
  /** The open database (tests and diagnostics read it; the app goes through `api`). */
  db: Db;
  /** Local model downloads and runtime (the CLI's `models` command, tests). */
  models: LocalModelWiring;
}

export async function createCairn(options: CreateCairnOptions = {}): Promise<CairnInternals> {
  const env = options.env ?? process.env;
  const redactor = options.redactor ?? new SecretRedactor();
  const dataDir = options.dataDir ?? null;
  const layout = dataDir ? dataDirLayout(dataDir) : null;
  let lock: DataDirLock | null = null;
  let privacy: PrivateTreeKeeper | null = null;
  if (layout) {
    restrictUmask();
    mkdirSync(layout.root, { recursive: true, mode: PRIVATE_DIR_MODE });
    assertOwnedByUser(layout.root, 'data directory', { followLinks: true });
    lock = await acquireDataDirLock(layout.root);
  }
  const logger = options.logger ?? defaultLogger(layout?.logs ?? null, redactor);
  const disposers: (() => Promise<void> | void)[] = [];
  try {
    if (layout) {
      const keeper = new PrivateTreeKeeper(layout.root, (error) =>
        logger.warn('could not make the data directory private', { error }),
      );
      privacy = keeper;
      // Not awaited: the sweep (a chmod walk of every file PGlite keeps, 0.3–1 s on a loaded machine)
      // tightens what an older version left loose while the database starts; files made from here on
      // are owner-only through the umask, and dispose waits for the sweep (docs/decisions/cli-startup.md).
      void keeper.request();
      // Runs after the database has closed (disposers run in reverse): its last writes are private too.
      disposers.push(() => keeper.request());
    }
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
    disposers.push(events.on('sync.finished', () => void privacy?.request()));
    disposers.push(
      events.on('reindex.progress', (status) => {
        if (!status.running) void privacy?.request();
      }),
    );
    await closeAbandonedRuns(db);
    const manifestKeeper = layout
      ? new ManifestKeeper({ db, path: layout.manifest, events, logger: logger.child('manifest') })
      : null;
    if (manifestKeeper) {
      void manifestKeeper.refresh();
      disposers.push(() => manifestKeeper.dispose());
    }

    // Connections: the repository, their secrets, the connectors built from them, and the
    // lifecycle events through which the services below learn what happened to one.
    const lifecycle = new ConnectionEventBus();
    const signInFlows = new SignInFlows();
    // Read by views while the folder watch service (built below, once syncs exist) runs.
    let folderWatch: FolderWatchService | null = null;
    const repository = new ConnectionRepository(db, {
      folderStateOf: (view) => folderWatch?.stateOf(view),
      secretFieldsOf: (ref) => secretFieldNames(secretStore, ref),
      limitationOf: (platform, config, secretFields) => connectionLimitation(platform, config, secretFields),
      directOnlyOf: (platform, config, secretFields) => connectionDirectOnly(platform, config, secretFields),
      userAuthOf: (id, platform, secretFields, lost) =>
        signInFlows.stateOf(id, supportsUserSignIn(platform), secretFields, lost),
    });
    const connectionSecrets = new ConnectionSecrets(
      secretStore,
      repository,
      logger.child('secrets'),
      redactor,
    );
    const connectors = new ConnectionConnectors({
      repository,
      secrets: connectionSecrets,
      lifecycle,
      logger: logger.child('connections'),
      ...(options.factories ? { factories: options.factories } : {}),
    });

    const settings = new SettingsRepository(db, secretStore);
    const configuredSettings = async () => embeddingSettingsFromEnv(env) ?? (await settings.get()).embedding;
    const models = createLocalModelServices({
      modelsDir: options.modelsDir ?? (layout ? layout.models : temporaryFolder('cairn-models-', disposers)),
      env,
      events,
      logger: logger.child('models'),
      settings: () => settings.get(),
      chunkCount: async () => (await reindexCost(db)).chunks,
      inUse: async () => {
        const configured = await configuredSettings();
        const active = embeddings.status().activeSpace.split('/');
        return [
          ...(configured.provider === 'local' ? [configured.model] : []),
          ...(active[0] === LOCAL_PROVIDER ? [active[1]?.split('@')[0] ?? ''] : []),
          ...(rerankerInUse() ? [rerankerInUse()!.model] : []),
        ];
      },
      // A model the settings name was just installed (or replaced): build its embedder, start the re-embed.
      onChange: async (id) => {
        const configured = await configuredSettings();
        if (configured.provider === 'local' && configured.model === id) await embeddings.reconfigure();
      },
      ...(options.workerEntry ? { workerEntry: options.workerEntry } : {}),
    });
    disposers.push(() => models.local.dispose());
    disposers.push(() => models.service.dispose());
    const buildEmbedder = (chosen: EmbeddingSettings) =>
      createEmbedder(chosen, {}, (id) => models.local.embedder(id));
    let rerankChoice = rerankerSettings((await settings.get()).reranker, env);
    const rerankerInUse = () => models.local.reranker(rerankChoice);
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
        return { embedder: buildEmbedder(chosen), settings: chosen };
      },
      spaceSettings: new SpaceSettingsStore(db, secretStore, (key) => redactor.register(key), buildEmbedder),
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
    const syncService = new SyncService({
      db,
      engine,
      connectors,
      repository,
      embeddings,
      lifecycle,
      events,
      logger: logger.child('sync'),
    });
    disposers.push(() => syncService.dispose());

    const connectionService = new ConnectionService({
      repository,
      secrets: connectionSecrets,
      connectors,
      lifecycle,
      sync: syncService,
      events,
      logger: logger.child('connections'),
    });

    // Direct-mode connections as live search sources, following the connection list.
    const direct = new DirectSources({ connectors, lifecycle, events, logger: logger.child('direct') });
    direct.update(await repository.list());
    disposers.push(() => direct.dispose());

    const signIn = new UserAuthService({
      connectors,
      repository,
      secrets: connectionSecrets,
      connections: connectionService,
      flows: signInFlows,
      lifecycle,
      events,
      logger: logger.child('sign-in'),
      redact,
    });
    disposers.push(() => signIn.dispose());

    const search = new HybridSearch({
      db,
      connections: repository,
      queryEmbedder: (space) => embeddings.forSpace(space),
      minVectorSimilarity: (space) => vectorTuning(space, models.local.catalog).minSimilarity,
      vectorWeight: (space) => vectorTuning(space, models.local.catalog).weight,
      lexicalCandidates: (space, vectors) =>
        vectorTuning(space, models.local.catalog).lexicalCandidates(vectors),
      reranker: () => {
        const reranker = rerankerInUse();
        return reranker ? { reranker, budgetMs: rerankChoice.budgetMs } : null;
      },
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

    // Scheduled syncs start through the service, as the card's button does.
    const scheduler =
      options.scheduler === false
        ? null
        : new SyncScheduler({
            store: repository,
            settings: () => settings.get(),
            startSync: (connectionId) => toResult(() => syncService.start(connectionId)),
            events,
            announce: () => announceConnections(events, repository),
            logger: logger.child('scheduler'),
          });
    const appDeps = {
      version: CAIRN_VERSION,
      dataDir,
      secretStorage: secretStore.storage,
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
      localEmbedder: (id: string) => models.local.embedder(id),
      onScheduleSettingsChanged: async () => {
        await scheduler?.refresh();
      },
      afterUpdate: (after: SettingsView) => {
        rerankChoice = rerankerSettings(after.reranker, env);
        void manifestKeeper?.refresh();
      },
      localModels: {
        catalog: models.local.catalog,
        installed: (id: string) => models.store.installed(id) !== null,
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
          documents: documentsApi(documents, db),
          mcp: mcpApi({ launch: options.mcpLaunch ?? checkoutLaunch(), dataDir, documents }),
          chat: chatApi(chat),
          settings: settingsApi(settingsDeps, signal),
          models: modelsApi(
            models.service,
            options.ollamaBaseUrl ? { ollamaBaseUrl: options.ollamaBaseUrl } : {},
          ),
        },
        redact,
      );
    const api = buildApi();
    if (scheduler) disposers.push(await scheduler.start());

    if (options.watchFolders ?? options.scheduler !== false) {
      const sync = syncService;
      folderWatch = new FolderWatchService({
        events,
        listConnections: () => repository.list(),
        startSync: (connectionId) => sync.start(connectionId),
        announce: () => announceConnections(events, repository),
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
      secrets: secretStore,
      db,
      models,
      whenIdle: async () => {
        await syncService.whenIdle();
        await models.service.whenIdle();
        await embeddings.whenIdle();
        await privacy?.whenIdle();
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
