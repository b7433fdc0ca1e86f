import type { CairnApi } from '@shared/contract';
import type { ConnectorFactories } from '../connectors/registry';
import type { Db } from '../db/database';
import type { EventBus } from '../events/event-bus';
import type { Logger, SecretRedactor } from '../logging/logger';
import type { SpaceMaintenance } from '../index/space-maintenance';
import type { SecretStore } from '../secrets/secret-store';
import type { WatchFolder } from '../sync/folder-watcher';
import type { LocalModelWiring } from './local-models-wiring';
import type { McpLaunch } from './mcp-api';
import type { OllamaDetectOptions } from '../models/ollama-detect';

/** What the composition root builds: the contract implementation plus its event stream. */
export interface Cairn {
  api: CairnApi;
  /**
   * The same contract whose long calls (search, connection tests) stop when `signal` aborts: the
   * CLI's Ctrl-C. A transport cannot carry a signal, so IPC and HTTP use `api`.
   */
  cancellable(signal: AbortSignal): CairnApi;
  events: EventBus;
  /** The on-disk data directory, or null for an in-memory instance. */
  dataDir: string | null;
  /** Stops timers, cancels running work, closes the database last. */
  dispose(): Promise<void>;
}

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
  /**
   * Where to look for Ollama and how long to wait for it (tests point it at the fake, and give a
   * loaded machine longer). @default { baseUrl: 'http://127.0.0.1:11434', timeoutMs: 1500 }
   */
  ollama?: OllamaDetectOptions;
  /**
   * Build the semantic index (vectors) in the background in this process. @default as `scheduler`:
   * the app and `cairn serve` build, and `cairn sync` asks to; other one-shot commands (a search)
   * do not start a model for it.
   */
  buildSemanticIndex?: boolean;
  /**
   * A short-lived command that only reads (`cairn search`, `cairn status`): upkeep that serves the
   * processes which write or stay open is left to them: the walk that makes every file of the data
   * directory owner-only at open and at close (the directory itself is still made owner-only, which
   * keeps everyone else out of all it holds; a sync through this process still sweeps after it) and
   * dropping the template databases an older version left. @default false
   */
  oneShotRead?: boolean;
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
  /** Reclaims space after writes once idle (null in memory; tests run it at once). */
  maintenance: SpaceMaintenance | null;
}
