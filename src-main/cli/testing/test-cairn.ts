/**
 * A small but real Cairn for CLI tests: the real repositories, connection service, secret store
 * and connectors over an in-memory PGlite, plus a minimal sync (documents table only, no chunking
 * or embedding) and a search that fans out to the connectors' own search. The production
 * composition root replaces the sync and search parts with the real engine and hybrid search.
 */
import { createHash } from 'node:crypto';
import type { CairnApi } from '../../../src-shared/contract';
import { fail, ok } from '../../../src-shared/errors';
import type { SearchHit, SearchResponse, SyncCounters, SyncProgress, SyncRunView } from '../../../src-shared/models';
import type { Cairn } from '../../core/app/cairn';
import { ConnectionRepository } from '../../core/app/connection-repository';
import { ConnectionService, connectionsApi } from '../../core/app/connection-service';
import { EventBus } from '../../core/app/event-bus';
import { SettingsRepository } from '../../core/app/settings-repository';
import type { ConnectorFactories } from '../../core/connectors/registry';
import type { Db } from '../../core/db/database';
import { CairnError, isAbortError, toErrorData, toResult } from '../../core/errors';
import { silentLogger } from '../../core/logging/logger';
import { MemorySecretStore, type SecretStore } from '../../core/secrets/secret-store';

export interface TestCairn extends Cairn {
  secrets: SecretStore;
  repository: ConnectionRepository;
  /** Resolves when every sync started so far has finished. */
  idle(): Promise<void>;
}

const ZERO: SyncCounters = { seen: 0, added: 0, updated: 0, unchanged: 0, deleted: 0, failed: 0, chunksEmbedded: 0, embedderCalls: 0, embeddingTokens: 0 };

export function createTestCairn(db: Db, options: { factories?: ConnectorFactories; dataDir?: string } = {}): TestCairn {
  const events = new EventBus();
  const secrets = new MemorySecretStore();
  const repository = new ConnectionRepository(db, { secretFieldsOf: async (ref) => Object.keys((await secrets.get(ref)) ?? {}) });
  const running = new Map<string, { controller: AbortController; done: Promise<void>; progress: SyncProgress }>();
  const service = new ConnectionService({
    repository,
    secrets,
    logger: silentLogger(),
    events,
    ...(options.factories ? { factories: options.factories } : {}),
    beforeRemove: async (id) => {
      running.get(id)?.controller.abort();
      await running.get(id)?.done;
    },
  });
  const settings = new SettingsRepository(db, secrets);
  let nextRunId = 1;

  async function runSync(connectionId: string, runId: number, signal: AbortSignal): Promise<SyncRunView> {
    const startedAt = new Date().toISOString();
    const counters = { ...ZERO };
    const errors: SyncRunView['errors'] = [];
    const progress = (phase: SyncProgress['phase'], done: number, total: number) => {
      const update: SyncProgress = { connectionId, runId, phase, documentsDone: done, documentsTotal: total, chunksWritten: counters.chunksEmbedded, errors: errors.length };
      const entry = running.get(connectionId);
      if (entry) entry.progress = update;
      events.emit('sync.progress', update);
    };
    try {
      const connector = await service.connectorFor(connectionId);
      const stored = new Map(
        (await db.query<{ external_id: string; revision: string | null }>('SELECT external_id, revision FROM documents WHERE connection_id = $1', [connectionId])).rows.map((r) => [r.external_id, r.revision]),
      );
      const refs = [];
      for await (const ref of connector.list(signal)) refs.push(ref);
      counters.seen = refs.length;
      for (const [index, ref] of refs.entries()) {
        progress('fetching', index, refs.length);
        const known = stored.has(ref.externalId);
        if (known && ref.revision !== null && stored.get(ref.externalId) === ref.revision) {
          counters.unchanged++;
          continue;
        }
        try {
          const fetched = await connector.fetch(ref, signal);
          const hash = createHash('sha256').update(fetched.markdown).digest('hex');
          await db.query(
            `INSERT INTO documents (connection_id, external_id, title, knowledge_base, url, revision, content_hash, content, chunk_count)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1)
             ON CONFLICT (connection_id, external_id) DO UPDATE SET title = EXCLUDED.title, revision = EXCLUDED.revision, content_hash = EXCLUDED.content_hash, content = EXCLUDED.content`,
            [connectionId, ref.externalId, fetched.title ?? ref.title, ref.knowledgeBase, ref.url, ref.revision, hash, fetched.markdown],
          );
          // One chunk per document stands in for the chunker, so counts are real rows.
          await db.query('DELETE FROM chunks WHERE document_id = (SELECT id FROM documents WHERE connection_id = $1 AND external_id = $2)', [connectionId, ref.externalId]);
          await db.query(
            'INSERT INTO chunks (document_id, connection_id, ord, content, char_start, char_end) SELECT id, $1, 0, content, 0, length(content) FROM documents WHERE connection_id = $1 AND external_id = $2',
            [connectionId, ref.externalId],
          );
          counters[known ? 'updated' : 'added']++;
          counters.chunksEmbedded++;
        } catch (error) {
          if (isAbortError(error)) throw error;
          counters.failed++;
          errors.push({ externalId: ref.externalId, title: ref.title, ...pick(toErrorData(error)) });
        }
      }
      const listed = new Set(refs.map((ref) => ref.externalId));
      const gone = [...stored.keys()].filter((id) => !listed.has(id));
      if (gone.length) await db.query('DELETE FROM documents WHERE connection_id = $1 AND external_id = ANY($2)', [connectionId, gone]);
      counters.deleted = gone.length;
      counters.embedderCalls = counters.chunksEmbedded > 0 ? 1 : 0;
      progress('done', refs.length, refs.length);
      const status = counters.failed > 0 ? 'partial' : 'succeeded';
      await repository.updateSyncState(connectionId, { syncStatus: 'synced', syncError: errors.length ? `${errors.length} documents failed` : null, lastSyncAt: new Date() });
      return { id: runId, connectionId, status, startedAt, finishedAt: new Date().toISOString(), counters, errors, error: null };
    } catch (error) {
      const cancelled = isAbortError(error);
      await repository.updateSyncState(connectionId, { syncStatus: cancelled ? 'idle' : 'failed', syncError: cancelled ? null : toErrorData(error).message }).catch(() => undefined);
      return { id: runId, connectionId, status: cancelled ? 'cancelled' : 'failed', startedAt, finishedAt: new Date().toISOString(), counters, errors, error: toErrorData(error) };
    }
  }

  async function startSync(connectionId: string): Promise<{ runId: number }> {
    const view = await repository.get(connectionId);
    if (view.mode !== 'rag') throw new CairnError('INVALID_ARGUMENT', `"${view.name}" is in direct mode: it is searched live and has nothing to sync.`);
    if (running.has(connectionId)) throw new CairnError('ALREADY_SYNCING', `"${view.name}" is already syncing.`);
    const runId = nextRunId++;
    const controller = new AbortController();
    const progress: SyncProgress = { connectionId, runId, phase: 'listing', documentsDone: 0, documentsTotal: 0, chunksWritten: 0, errors: 0 };
    const done = (async () => {
      await Promise.resolve(); // answer start() first, like a background engine
      const run = await runSync(connectionId, runId, controller.signal);
      running.delete(connectionId);
      events.emit('sync.finished', run);
    })();
    running.set(connectionId, { controller, done, progress });
    return { runId };
  }

  async function search(query: string, k: number, connectionIds?: string[]): Promise<SearchResponse> {
    const started = performance.now();
    const views = (await repository.list()).filter((view) => !connectionIds || connectionIds.includes(view.id));
    const hits: SearchHit[] = [];
    const warnings: SearchResponse['warnings'] = [];
    for (const view of views) {
      let found;
      try {
        found = await (await service.connectorFor(view.id)).search(query, { limit: k });
      } catch (error) {
        warnings.push({ connectionId: view.id, error: toErrorData(error) });
        continue;
      }
      for (const [rank, hit] of found.entries()) {
        hits.push({
          key: `direct:${view.id}:${hit.externalId}`,
          source: 'direct',
          connectionId: view.id,
          platform: view.platform,
          documentId: null,
          externalId: hit.externalId,
          title: hit.title,
          knowledgeBase: hit.knowledgeBase,
          url: hit.url,
          headingPath: '',
          text: hit.snippet,
          charStart: null,
          charEnd: null,
          score: 1 / (60 + rank + 1),
          ranks: { direct: rank + 1 },
        });
      }
    }
    return { hits: hits.sort((a, b) => b.score - a.score).slice(0, k), warnings, tookMs: performance.now() - started };
  }

  const unsupported = async () => fail('UNSUPPORTED', 'Not part of the CLI test Cairn.');
  const api: CairnApi = {
    app: {
      status: () =>
        toResult(async () => {
          const current = await settings.get();
          const space = `${current.embedding.provider}/${current.embedding.model || 'default'}/${current.embedding.dimensions}`;
          return {
            version: '0.1.0',
            dataDir: options.dataDir ?? ':memory:',
            connections: await repository.list(),
            settings: current,
            reindex: { running: false, done: 0, total: 0, activeSpace: space, pendingSpace: null },
            syncing: Object.fromEntries([...running].map(([id, entry]) => [id, entry.progress])),
          };
        }),
      openExternal: unsupported,
    },
    connections: connectionsApi(service),
    sync: {
      start: (input) => toResult(() => startSync(input.connectionId)),
      startAll: () =>
        toResult(async () => {
          const started: string[] = [];
          for (const view of await repository.list({ mode: 'rag' })) if (!running.has(view.id) && (await toResult(() => startSync(view.id))).ok) started.push(view.id);
          return { started };
        }),
      cancel: async (input) => {
        running.get(input.connectionId)?.controller.abort();
        return ok(undefined);
      },
      runs: async () => ok([]),
    },
    search: {
      query: (input) => toResult(() => search(input.query, input.k ?? 10, input.connectionIds)),
    },
    chat: { ask: unsupported, cancel: unsupported, conversations: unsupported, messages: unsupported, removeConversation: unsupported },
    settings: {
      get: () => toResult(() => settings.get()),
      update: (input) => toResult(() => settings.update(input)),
      reindexCost: unsupported,
    },
  };

  return {
    api,
    events,
    dataDir: options.dataDir ?? null,
    secrets,
    repository,
    idle: async () => {
      await Promise.all([...running.values()].map((entry) => entry.done));
    },
    dispose: async () => {
      for (const entry of running.values()) entry.controller.abort();
      await Promise.all([...running.values()].map((entry) => entry.done));
    },
  };
}

function pick(error: { code: string; message: string }): { code: string; message: string } {
  return { code: error.code, message: error.message };
}
