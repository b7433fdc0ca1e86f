/**
 * DEMO BACKEND — a small, real, in-memory implementation of the contract for tests, `cairn serve
 * --demo` and UI work. It is not Cairn's core: no database, no connectors, no embeddings. Its
 * connections "contain" a fixed sample corpus (Chinese and English), its sync walks that corpus
 * on a timer and emits the real events, search is keyword-only, and chat is extractive.
 * The real composition root (createCairn in src-main/core/app) replaces it everywhere else.
 */
import { isAbsolute } from 'node:path';
import type { CairnApi, CairnEventName, CairnEvents } from '../../src-shared/contract';
import type { ConnectionView, NewConnection, ReindexStatus, SearchHit, SearchRequest, SearchResponse, SettingsView, SyncProgress } from '../../src-shared/models';
import { PLATFORM_INFO } from '../../src-shared/platforms';
import { CairnError, toResult } from '../core/errors';
import type { Cairn } from '../core/app/cairn';
import { EventBus } from '../core/app/event-bus';
import { resolveOpenTarget } from '../core/app/open-external';
import { DemoChat } from './demo/demo-chat';
import { rankByKeywords } from './demo/demo-search';
import { DemoState, DemoTimers, demoSourceDocuments, indexDocument, type DemoConnection, type IndexedDocument } from './demo/demo-state';
import { startDemoSync } from './demo/demo-sync';

export interface DemoCairnOptions {
  /**
   * Delay between two steps of a demo sync (chat tokens stream four times faster).
   * @default 150
   */
  tickMs?: number;
}

const DEMO_VERSION = '0.1.0-demo';

function defaultSettings(): SettingsView {
  return {
    embedding: { provider: 'builtin', baseUrl: '', model: 'cairn-hash-v1', dimensions: 1024, hasApiKey: false },
    chat: { provider: 'none', baseUrl: '', model: '', hasApiKey: false, topK: 10 },
    syncIntervalHours: 24,
    scheduledSyncPaused: false,
    language: 'system',
  };
}

function spaceOf(settings: SettingsView): string {
  return `${settings.embedding.provider}/${settings.embedding.model}/${settings.embedding.dimensions}`;
}

function checkNewConnection(input: NewConnection): void {
  for (const field of PLATFORM_INFO[input.platform].fields) {
    const value = field.secret ? input.secrets[field.key] : input.config[field.key];
    if (field.required && (value === undefined || String(value).trim() === '')) throw new CairnError('INVALID_ARGUMENT', `${field.label.en} is required.`);
  }
  if (input.platform === 'folder' && !isAbsolute(String(input.config.path))) throw new CairnError('INVALID_ARGUMENT', 'Folder path must be absolute.');
  if (Object.values(input.secrets).some((value) => value === 'invalid')) throw new CairnError('AUTH_INVALID', 'The platform rejected these credentials.');
}

export function createDemoCairn(options: DemoCairnOptions = {}): Cairn {
  const tickMs = options.tickMs ?? 150;
  const events = new EventBus();
  const state = new DemoState();
  const timers = new DemoTimers();
  const syncing = new Map<string, SyncProgress>();
  let settings = defaultSettings();
  let reindex: ReindexStatus = { running: false, done: 0, total: 0, activeSpace: spaceOf(settings), pendingSpace: null };

  function emit<N extends CairnEventName>(name: N, payload: CairnEvents[N]): void {
    if (name === 'sync.progress') {
      const progress = payload as SyncProgress;
      if (progress.phase === 'done') syncing.delete(progress.connectionId);
      else syncing.set(progress.connectionId, progress);
    }
    events.emit(name, payload);
  }

  function connectionOf(id: string): DemoConnection {
    const found = state.connections.get(id);
    if (!found) throw new CairnError('NOT_FOUND', `No connection with id "${id}".`);
    return found;
  }

  function searchAll(request: SearchRequest): SearchHit[] {
    const wanted = request.connectionIds ? new Set(request.connectionIds) : null;
    const indexed: IndexedDocument[] = [];
    const live: IndexedDocument[] = [];
    for (const connection of state.connections.values()) {
      if (wanted && !wanted.has(connection.view.id)) continue;
      if (connection.view.mode === 'rag') indexed.push(...connection.indexed);
      // Direct connections are searched "live": the demo reads its corpus at query time.
      else live.push(...demoSourceDocuments(connection.view).filter((source) => !source.document.unreadable).map((source) => indexDocument(state, connection.view.id, source)));
    }
    const channel = (documents: IndexedDocument[]) => {
      const chunks = documents.flatMap((document) => document.chunks.map((chunk) => ({ document, chunk })));
      return rankByKeywords(request.query, chunks.map(({ document, chunk }) => `${document.title}\n${chunk.headingPath}\n${chunk.text}`)).map(({ index }) => chunks[index]!);
    };
    const fused = new Map<string, { hit: SearchHit; score: number }>();
    const add = (entries: { document: IndexedDocument; chunk: IndexedDocument['chunks'][number] }[], source: 'index' | 'direct') => {
      entries.forEach(({ document, chunk }, position) => {
        const key = source === 'index' ? `chunk:${chunk.id}` : `direct:${document.connectionId}:${document.externalId}`;
        if (fused.has(key)) return;
        const view = connectionOf(document.connectionId).view;
        const rank = position + 1;
        const score = 1 / (60 + rank);
        fused.set(key, {
          score,
          hit: {
            key, source, connectionId: document.connectionId, platform: view.platform,
            documentId: source === 'index' ? document.documentId : null, externalId: document.externalId,
            title: document.title, knowledgeBase: document.knowledgeBase, url: document.url,
            headingPath: chunk.headingPath, text: chunk.text, charStart: chunk.charStart, charEnd: chunk.charEnd,
            score, ranks: source === 'index' ? { keyword: rank } : { direct: rank },
          },
        });
      });
    };
    add(channel(indexed), 'index');
    add(channel(live), 'direct');
    return [...fused.values()].sort((a, b) => b.score - a.score).slice(0, request.k ?? 10).map(({ hit }) => hit);
  }

  const chat = new DemoChat({ timers, emit, tickMs, newId: () => state.newId(), retrieve: (question, k) => searchAll({ query: question, k }) });

  function startReindex(): void {
    const total = [...state.connections.values()].reduce((sum, connection) => sum + connection.indexed.reduce((n, document) => n + document.chunks.length, 0), 0);
    reindex = { running: total > 0, done: 0, total, activeSpace: total > 0 ? reindex.activeSpace : spaceOf(settings), pendingSpace: total > 0 ? spaceOf(settings) : null };
    emit('reindex.progress', { ...reindex });
    const step = () => {
      if (!reindex.running) return;
      const done = Math.min(reindex.total, reindex.done + Math.max(1, Math.ceil(reindex.total / 5)));
      reindex = done >= reindex.total ? { running: false, done, total: reindex.total, activeSpace: reindex.pendingSpace ?? reindex.activeSpace, pendingSpace: null } : { ...reindex, done };
      emit('reindex.progress', { ...reindex });
      if (reindex.running) timers.later(tickMs, step);
    };
    if (reindex.running) timers.later(tickMs, step);
  }

  const api: CairnApi = {
    app: {
      status: () => toResult(async () => ({ version: DEMO_VERSION, dataDir: '(in memory: demo backend)', connections: state.views(), settings: structuredClone(settings), reindex: { ...reindex }, syncing: Object.fromEntries(syncing) })),
      openExternal: ({ url }) => toResult(async () => {
        resolveOpenTarget(url, [...state.connections.values()].filter((c) => c.view.platform === 'folder').map((c) => String(c.view.config.path)));
      }),
    },
    connections: {
      list: () => toResult(async () => state.views()),
      add: (input) => toResult(async () => {
        checkNewConnection(input);
        if (state.views().some((view) => view.platform === input.platform && view.name === input.name.trim())) throw new CairnError('ALREADY_EXISTS', `A ${PLATFORM_INFO[input.platform].label.en} connection named "${input.name}" already exists.`);
        const view: ConnectionView = {
          id: `c${state.newId()}`, platform: input.platform, name: input.name.trim(), mode: input.mode, config: { ...input.config },
          secretFields: Object.keys(input.secrets).filter((key) => input.secrets[key] !== ''), syncStatus: 'idle', syncError: null,
          lastSyncAt: null, nextSyncAt: null, documentCount: 0, chunkCount: 0, limitation: null, experimental: PLATFORM_INFO[input.platform].experimental,
        };
        state.connections.set(view.id, { view, secrets: { ...input.secrets }, indexed: [], runs: [], running: null });
        emit('connections.changed', state.views());
        return { ...view };
      }),
      test: ({ id }) => toResult(async () => {
        const connection = connectionOf(id);
        if (Object.values(connection.secrets).some((value) => value === 'expired')) throw new CairnError('AUTH_EXPIRED', 'The access token has expired.');
        return { message: `Connected: ${demoSourceDocuments(connection.view).length} documents found.` };
      }),
      testNew: (input) => toResult(async () => {
        checkNewConnection(input);
        return { message: `Connected: ${demoSourceDocuments(input).length} documents found.` };
      }),
      setMode: ({ id, mode }) => toResult(async () => {
        const connection = connectionOf(id);
        if (connection.running) throw new CairnError('ALREADY_SYNCING', 'Wait for the running sync to finish or cancel it first.');
        if (mode === 'direct') connection.indexed = [];
        connection.view = { ...connection.view, mode, syncStatus: 'idle', syncError: null, documentCount: 0, chunkCount: 0, nextSyncAt: null, ...(mode === 'direct' ? { lastSyncAt: null } : {}) };
        emit('connections.changed', state.views());
        return { ...connection.view };
      }),
      rename: ({ id, name }) => toResult(async () => {
        const connection = connectionOf(id);
        connection.view = { ...connection.view, name: name.trim() };
        emit('connections.changed', state.views());
        return { ...connection.view };
      }),
      remove: ({ id }) => toResult(async () => {
        connectionOf(id).running?.abort();
        state.connections.delete(id);
        syncing.delete(id);
        emit('connections.changed', state.views());
      }),
    },
    sync: {
      start: ({ connectionId }) => toResult(async () => {
        const connection = connectionOf(connectionId);
        if (connection.view.mode !== 'rag') throw new CairnError('INVALID_ARGUMENT', 'Direct-search connections are not indexed: enable RAG indexing first.');
        if (connection.running) throw new CairnError('ALREADY_SYNCING', `"${connection.view.name}" is already syncing.`);
        return { runId: startDemoSync({ state, timers, emit, tickMs }, connection) };
      }),
      startAll: () => toResult(async () => {
        const started: string[] = [];
        for (const connection of state.connections.values()) {
          if (connection.view.mode !== 'rag' || connection.running) continue;
          startDemoSync({ state, timers, emit, tickMs }, connection);
          started.push(connection.view.id);
        }
        return { started };
      }),
      cancel: ({ connectionId }) => toResult(async () => {
        connectionOf(connectionId).running?.abort();
      }),
      runs: ({ connectionId, limit }) => toResult(async () => connectionOf(connectionId).runs.slice(0, limit ?? 20)),
    },
    search: {
      query: (request) => toResult(async (): Promise<SearchResponse> => {
        const started = performance.now();
        const hits = request.query.trim() ? searchAll(request) : [];
        return { hits, warnings: [], tookMs: Math.round((performance.now() - started) * 10) / 10 };
      }),
    },
    chat: {
      ask: ({ question, conversationId, k }) => toResult(async () => {
        const started = chat.ask(question, conversationId, k ?? settings.chat.topK);
        if (!started) throw new CairnError('NOT_FOUND', 'That conversation no longer exists.');
        return started;
      }),
      cancel: ({ messageId }) => toResult(async () => {
        chat.cancel(messageId);
      }),
      conversations: () => toResult(async () => chat.list()),
      messages: ({ conversationId }) => toResult(async () => {
        const messages = chat.messages(conversationId);
        if (!messages) throw new CairnError('NOT_FOUND', 'That conversation no longer exists.');
        return messages;
      }),
      removeConversation: ({ conversationId }) => toResult(async () => {
        if (!chat.remove(conversationId)) throw new CairnError('NOT_FOUND', 'That conversation no longer exists.');
      }),
    },
    settings: {
      get: () => toResult(async () => structuredClone(settings)),
      update: (patch) => toResult(async () => {
        const before = spaceOf(settings);
        const { apiKey: embeddingKey, ...embedding } = patch.embedding ?? {};
        const { apiKey: chatKey, ...chatPatch } = patch.chat ?? {};
        settings = {
          ...settings,
          ...(patch.syncIntervalHours !== undefined ? { syncIntervalHours: patch.syncIntervalHours } : {}),
          ...(patch.scheduledSyncPaused !== undefined ? { scheduledSyncPaused: patch.scheduledSyncPaused } : {}),
          ...(patch.language !== undefined ? { language: patch.language } : {}),
          embedding: { ...settings.embedding, ...embedding, hasApiKey: embeddingKey !== undefined ? embeddingKey !== '' : settings.embedding.hasApiKey },
          chat: { ...settings.chat, ...chatPatch, hasApiKey: chatKey !== undefined ? chatKey !== '' : settings.chat.hasApiKey },
        };
        if (spaceOf(settings) !== before) startReindex();
        return structuredClone(settings);
      }),
      reindexCost: () => toResult(async () => {
        const connections = [...state.connections.values()];
        return { documents: connections.reduce((sum, c) => sum + c.indexed.length, 0), chunks: connections.reduce((sum, c) => sum + c.indexed.reduce((n, d) => n + d.chunks.length, 0), 0) };
      }),
    },
  };

  return {
    api,
    events,
    dataDir: null,
    async dispose() {
      for (const connection of state.connections.values()) connection.running?.abort();
      timers.dispose();
    },
  };
}
