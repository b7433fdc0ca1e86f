/**
 * The one typed contract between the UI and Cairn's core (STYLE.md §1).
 * Main implements it, the preload exposes it as `window.api`, the headless host serves it over
 * HTTP + server-sent events, and the renderer calls it through one adapter. Every method returns
 * a Promise of a Result: errors are data with a closed set of codes.
 */
import type { AppErrorData, Result } from './errors';
import type {
  ChatAnswer,
  ChatMessageView,
  ConnectionMode,
  ConnectionUpdate,
  ConnectionView,
  ConversationView,
  DocumentPage,
  McpSetup,
  McpTestReport,
  CoreMessage,
  DocumentTopic,
  DocumentView,
  DocumentExplanation,
  DocumentTitle,
  ExplainRequest,
  FolderPreview,
  ModelProgress,
  ModelsSnapshot,
  ModelView,
  NewConnection,
  OllamaDetection,
  RecoveryAction,
  RecoveryReport,
  ReindexStatus,
  SearchFacets,
  SearchRequest,
  SearchResponse,
  SettingsPatch,
  SettingsView,
  StatusSnapshot,
  SyncProgress,
  SyncRunView,
} from './models';

export interface CairnApi {
  app: {
    /** Everything the UI needs at start; later changes arrive as events. */
    status(): Promise<Result<StatusSnapshot>>;
    /**
     * Opens an original document link: http(s), a file that belongs to a folder connection (a PDF
     * at `page` where the viewer honours `#page=`), or an obsidian://open link into a folder that
     * is an Obsidian vault. `reveal`: show a folder file in the system's file manager instead of
     * opening it (INVALID_ARGUMENT for a web or Obsidian link).
     */
    openExternal(input: { url: string; page?: number; reveal?: boolean }): Promise<Result<void>>;
    /** The desktop app's native folder picker; UNSUPPORTED in the browser (type a path instead). */
    pickFolder(): Promise<Result<{ path: string | null }>>;
    /**
     * After `status` answered DATA_DIR_DAMAGED: moves the damaged database aside and opens a new one,
     * with the connections restored and syncing (`rebuild`) or empty (`fresh`). INVALID_ARGUMENT
     * when the database opens fine.
     */
    recover(input: { action: RecoveryAction }): Promise<Result<RecoveryReport>>;
  };
  connections: {
    list(): Promise<Result<ConnectionView[]>>;
    add(input: NewConnection): Promise<Result<ConnectionView>>;
    /** Checks credentials and reachability without syncing. */
    test(input: { id: string }): Promise<Result<CoreMessage>>;
    /** What a folder would index (file counts by kind), before it is added; `~` means the home folder. */
    previewFolder(input: { path: string; exclude?: string }): Promise<Result<FolderPreview>>;
    /** Checks credentials before a connection is saved (the Add dialog's "Test connection"). */
    testNew(input: NewConnection): Promise<Result<CoreMessage>>;
    setMode(input: { id: string; mode: ConnectionMode }): Promise<Result<ConnectionView>>;
    rename(input: { id: string; name: string }): Promise<Result<ConnectionView>>;
    /** Edits name, settings or credentials, keeping the index; ALREADY_SYNCING while a sync of it runs. */
    update(input: ConnectionUpdate): Promise<Result<ConnectionView>>;
    /** The Edit dialog's "Test connection": the edited fields with the stored secrets, nothing saved. */
    testUpdate(input: ConnectionUpdate): Promise<Result<CoreMessage>>;
    /** Removes the connection, its index and its stored secrets. */
    remove(input: { id: string }): Promise<Result<void>>;
    /**
     * Starts the browser sign-in (Feishu/Lark user OAuth) and returns the page to open; the outcome
     * arrives as `auth.finished`. `opened` is true when the shell already opened it (Electron).
     */
    authorize(input: { id: string }): Promise<Result<{ authorizeUrl: string; opened: boolean }>>;
    cancelAuthorize(input: { id: string }): Promise<Result<void>>;
    /**
     * Withdraws the user sign-in: ends a waiting one and a running sync of the connection, and
     * removes the stored user refresh token (the app credentials stay). UNSUPPORTED for platforms
     * without a user sign-in.
     */
    signOut(input: { id: string }): Promise<Result<ConnectionView>>;
  };
  sync: {
    /** Starts a sync in the background; ALREADY_SYNCING when one runs for this connection. */
    start(input: { connectionId: string }): Promise<Result<{ runId: number }>>;
    startAll(): Promise<Result<{ started: string[] }>>;
    cancel(input: { connectionId: string }): Promise<Result<void>>;
    runs(input: { connectionId: string; limit?: number }): Promise<Result<SyncRunView[]>>;
  };
  search: {
    /** INVALID_ARGUMENT for a malformed filter (a date that is not ISO 8601, an unknown platform). */
    query(input: SearchRequest): Promise<Result<SearchResponse>>;
    /** What the filter bar offers: connections, platforms, knowledge bases, tags with counts, the date range. */
    facets(): Promise<Result<SearchFacets>>;
    /**
     * "Why not this document?": the search run as `query` runs it, with one document followed
     * through every stage. NOT_FOUND when no indexed document has that id or title;
     * INVALID_ARGUMENT when a title fragment names several.
     */
    explain(input: ExplainRequest): Promise<Result<DocumentExplanation>>;
    /** Indexed documents whose title holds `text` (the "why not" type-ahead): exact, then prefix, then shortest. */
    titles(input: { text: string; limit?: number }): Promise<Result<DocumentTitle[]>>;
  };
  documents: {
    /**
     * An indexed document's Markdown with its chunks' offsets and metadata (works offline: it is
     * read from the index). NOT_FOUND when no such document is indexed (removed, or never synced).
     */
    get(input: { documentId: number }): Promise<Result<DocumentView>>;
    /**
     * Indexed documents without their text, a page at a time in a stable order (by connection,
     * then id): one connection's, or all. MCP lists them as resources.
     */
    list(input: { connectionId?: string; offset?: number; limit?: number }): Promise<Result<DocumentPage>>;
    /**
     * Headings from the user's own documents (newest documents first, one per document before a
     * second, generic ones like "Overview" skipped): what the UI suggests to search and ask after a sync.
     */
    topics(input: { limit?: number }): Promise<Result<DocumentTopic[]>>;
  };
  mcp: {
    /** How AI tools (Claude Desktop, Cursor, Cherry Studio) start `cairn mcp` for this data directory. */
    setup(): Promise<Result<McpSetup>>;
    /**
     * Starts `cairn mcp` exactly as configured in `setup`, through the official MCP client, and runs
     * one search (`query`, else a title from the index). UNSUPPORTED without a data directory.
     */
    test(input: { query?: string }): Promise<Result<McpTestReport>>;
  };
  chat: {
    /** Starts an answer; tokens arrive as `chat.token` events and the result as `chat.done`. */
    ask(input: {
      question: string;
      conversationId?: string;
      k?: number;
      /**
       * Search with this query instead of the question (and its follow-up rewrite): the user's
       * edit of an answer's "searched for". The question is still what the model answers.
       */
      searchQuery?: string;
    }): Promise<Result<{ conversationId: string; messageId: string }>>;
    cancel(input: { messageId: string }): Promise<Result<void>>;
    conversations(): Promise<Result<ConversationView[]>>;
    messages(input: { conversationId: string }): Promise<Result<ChatMessageView[]>>;
    /** A title the user chose; INVALID_ARGUMENT when blank, NOT_FOUND when there is no such conversation. */
    renameConversation(input: { conversationId: string; title: string }): Promise<Result<ConversationView>>;
    removeConversation(input: { conversationId: string }): Promise<Result<void>>;
  };
  settings: {
    get(): Promise<Result<SettingsView>>;
    /** Changing the embedding provider/model/dimensions starts a background re-index. */
    update(input: SettingsPatch): Promise<Result<SettingsView>>;
    /** How many documents/chunks a change of embedding model would re-embed. */
    reindexCost(): Promise<Result<{ documents: number; chunks: number }>>;
    /**
     * Settings' Test button: one short request to the chat model the form shows (nothing saved; an
     * empty key means the stored one for the stored provider). Its error codes are the chat's.
     */
    testChat(input: NonNullable<SettingsPatch['chat']>): Promise<Result<CoreMessage>>;
    /** The same for the embedding model: one query embedded; the vector's size is checked. */
    testEmbedding(input: NonNullable<SettingsPatch['embedding']>): Promise<Result<CoreMessage>>;
  };
  models: {
    /** The catalogue with what is installed, downloading, in use, and what switching would cost. */
    list(): Promise<Result<ModelsSnapshot>>;
    /** Starts a download in the background: `models.progress` while it runs, `models.changed` when it ends. */
    pull(input: { id: string; mirror?: string }): Promise<Result<void>>;
    cancel(input: { id: string }): Promise<Result<void>>;
    /** Deletes an installed model (refused while it is the active embedding model). */
    remove(input: { id: string }): Promise<Result<void>>;
    /** Installs from a folder on this machine (no network); files without a catalogue checksum need `allowUnverified`. */
    import(input: { id: string; folder: string; allowUnverified?: boolean }): Promise<Result<ModelView>>;
    /** Looks for Ollama on 127.0.0.1:11434 and the embedding models it has pulled. */
    detectOllama(): Promise<Result<OllamaDetection>>;
  };
}

/** Events pushed from main to the UI. The renderer applies them in one place (STYLE.md §8). */
export interface CairnEvents {
  'sync.progress': SyncProgress;
  'sync.finished': SyncRunView;
  'connections.changed': ConnectionView[];
  'reindex.progress': ReindexStatus;
  /**
   * `offset`: characters of this answer streamed before `delta`. A client that missed events (its
   * event stream broke) sees a gap and drops repeats; chat.messages gives the text streamed so far.
   */
  'chat.token': { conversationId: string; messageId: string; delta: string; offset: number };
  'chat.done': ChatAnswer;
  'auth.finished': { connectionId: string; ok: boolean; error: AppErrorData | null };
  'models.progress': ModelProgress;
  /** After a download, import or removal finished or failed. */
  'models.changed': ModelsSnapshot;
}

export type CairnEventName = keyof CairnEvents;

/** Runtime list of the contract's methods, for transports that build proxies. */
export const API_METHODS = {
  app: ['status', 'openExternal', 'pickFolder', 'recover'],
  connections: [
    'list',
    'add',
    'test',
    'testNew',
    'previewFolder',
    'setMode',
    'rename',
    'remove',
    'update',
    'testUpdate',
    'authorize',
    'cancelAuthorize',
    'signOut',
  ],
  sync: ['start', 'startAll', 'cancel', 'runs'],
  search: ['query', 'facets', 'explain', 'titles'],
  documents: ['get', 'list', 'topics'],
  mcp: ['setup', 'test'],
  chat: ['ask', 'cancel', 'conversations', 'messages', 'renameConversation', 'removeConversation'],
  settings: ['get', 'update', 'reindexCost', 'testChat', 'testEmbedding'],
  models: ['list', 'pull', 'cancel', 'remove', 'import', 'detectOllama'],
} as const satisfies { [D in keyof CairnApi]: readonly (keyof CairnApi[D])[] };

// A method missing from API_METHODS is a compile error too.
type Listed = { [D in keyof typeof API_METHODS]: (typeof API_METHODS)[D][number] };
type Exhaustive = {
  [D in keyof CairnApi]: Exclude<keyof CairnApi[D], Listed[D]> extends never ? true : never;
};
export const API_METHODS_EXHAUSTIVE: Exhaustive = {
  app: true,
  connections: true,
  sync: true,
  search: true,
  documents: true,
  mcp: true,
  chat: true,
  settings: true,
  models: true,
};

export const EVENT_NAMES: readonly CairnEventName[] = [
  'sync.progress',
  'sync.finished',
  'connections.changed',
  'reindex.progress',
  'chat.token',
  'chat.done',
  'auth.finished',
  'models.progress',
  'models.changed',
];

export type ApiDomain = keyof CairnApi;
export type ApiMethodName<D extends ApiDomain> = keyof CairnApi[D] & string;
/** The wire name of a method, e.g. "sync.start". */
export type ApiChannel = { [D in ApiDomain]: `${D}.${ApiMethodName<D>}` }[ApiDomain];
