import type { AppErrorData } from '@shared/errors';
import type { ReindexStatus, SyncCounters, SyncRunView } from '@shared/models';
import { parseCommandArgs } from '../args';
import type { CliCommand, CliContext } from '../command';
import { reportError, terminalText, writeJson, writeLine } from '../output';
import { createProgressBar } from '../progress-bar';
import { resolveConnection } from '../resolve-connection';

/** After Ctrl-C, how long to wait for the engine to confirm the cancellation. */
const CANCEL_GRACE_MS = 15_000;

export type SyncRunReport = SyncRunView & { name: string };

/** A RAG connection whose sync could not start (e.g. UNSUPPORTED), with the reason. */
export interface NotStarted {
  connectionId: string;
  name: string;
  error: AppErrorData;
}

export const syncCommand: CliCommand = {
  name: 'sync',
  summary: 'Sync one RAG connection, or all of them, incrementally',
  usage:
    'cairn sync [connection] [--json]\nWith a semantic model, then waits while the semantic index embeds what the sync wrote (Ctrl-C stops waiting: the vectors made so far stay, the rest is built by the next `cairn sync`, the app or `cairn serve`).\nExit code 0 when every run succeeded, 1 when any failed, left documents out (failed or deferred) or could not start, 130 when cancelled.',
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(
      args,
      { json: { type: 'boolean' } },
      { min: 0, max: 1, names: '' },
    );
    const json = values.json ?? false;
    // Opened here (no running instance), this process builds the vectors of what it syncs.
    const { api, events } = await context.open({ semanticIndex: true });

    const seen: SyncRunView[] = [];
    const notStarted: NotStarted[] = [];
    let wake = () => {};
    const bar = createProgressBar(json ? { write: () => true } : context.stdout);
    const names = new Map<string, string>();
    const semanticWatch: SemanticWatch = { latest: null, changed: () => {} };
    // Subscribe before starting: a small sync can finish before start() even answers.
    const unsubscribe = [
      events.on('reindex.progress', (status) => {
        semanticWatch.latest = status;
        semanticWatch.changed();
      }),
      events.on('sync.finished', (run) => {
        seen.push(run);
        wake();
      }),
      events.on('sync.progress', (progress) => {
        if (names.has(progress.connectionId))
          bar.update({
            done: progress.documentsDone,
            total: progress.documentsTotal,
            label: `${names.get(progress.connectionId)} · ${progress.phase}`,
          });
      }),
    ];
    try {
      const targets = new Map<string, number | undefined>();
      if (positionals[0] !== undefined) {
        const found = await resolveConnection(api, positionals[0]);
        if (!found.ok) return reportError(context, found.error, json);
        names.set(found.value.id, found.value.name);
        const started = await api.sync.start({ connectionId: found.value.id });
        if (started.ok) targets.set(found.value.id, started.value.runId);
        // Already syncing (the app's or cairn serve's scheduler got there first): report that run.
        else if (isRunningElsewhere(started.error)) targets.set(found.value.id, undefined);
        else return reportError(context, started.error, json);
      } else {
        const listed = await api.connections.list();
        if (!listed.ok) return reportError(context, listed.error, json);
        // One start per connection (not startAll), so a connection that cannot start is named with its reason.
        for (const view of listed.value) {
          names.set(view.id, view.name);
          if (view.mode !== 'rag') continue;
          const started = await api.sync.start({ connectionId: view.id });
          if (started.ok) targets.set(view.id, started.value.runId);
          else if (isRunningElsewhere(started.error)) targets.set(view.id, undefined);
          else notStarted.push({ connectionId: view.id, name: view.name, error: started.error });
        }
      }

      const runFor = (id: string) =>
        seen.find(
          (run) => run.connectionId === id && (targets.get(id) === undefined || run.id === targets.get(id)),
        );
      const allDone = () => [...targets.keys()].every((id) => runFor(id) !== undefined);
      const cancelled = await waitUntil(
        allDone,
        (wakeUp) => (wake = wakeUp),
        context,
        async () => {
          for (const id of targets.keys()) if (!runFor(id)) await api.sync.cancel({ connectionId: id });
        },
      );
      bar.stop();
      const semantic = cancelled
        ? null
        : await waitForSemanticIndex(api, semanticWatch, context, json ? null : bar);
      const runs = [...targets.keys()]
        .map((id) => runFor(id))
        .filter((run): run is SyncRunView => run !== undefined);
      const reports: SyncRunReport[] = runs.map((run) => ({
        ...run,
        name: names.get(run.connectionId) ?? run.connectionId,
      }));
      if (json)
        writeJson(context, {
          ok: true,
          value: { runs: reports, notStarted, semantic: semantic?.status ?? null },
        });
      else {
        const lines = [
          ...reports.map(formatRun),
          ...notStarted.map(
            (entry) => `${entry.name}: not started: ${entry.error.message} (${entry.error.code})`,
          ),
          ...(semantic?.status ? [formatSemantic(semantic.status, semantic.interrupted)] : []),
        ];
        writeLine(
          context.stdout,
          lines.length ? lines.join('\n') : 'Nothing to sync: no connection is in RAG mode.',
        );
      }
      if (cancelled || semantic?.interrupted || reports.some((run) => run.status === 'cancelled')) return 130;
      return notStarted.length === 0 &&
        reports.every((run) => run.status === 'succeeded') &&
        reports.length === targets.size
        ? 0
        : 1;
    } finally {
      bar.stop();
      for (const stop of unsubscribe) stop();
    }
  },
};

/** The semantic index's latest progress as events tell it; `changed` wakes a wait. */
interface SemanticWatch {
  latest: ReindexStatus | null;
  changed: () => void;
}

/**
 * After the syncs, with a semantic model: waits while the semantic index builds (the vectors of
 * what was just written), showing its progress, until it stops building (caught up, or waiting on
 * the model) or Ctrl-C. Null without a semantic model. Nothing to wait for when no process builds
 * (a running instance that does not, e.g. `cairn mcp`): the status is reported as it is.
 */
async function waitForSemanticIndex(
  api: Awaited<ReturnType<CliContext['open']>>['api'],
  watch: SemanticWatch,
  context: CliContext,
  bar: ReturnType<typeof createProgressBar> | null,
): Promise<{ status: ReindexStatus; interrupted: boolean } | null> {
  // Only what is said from the status read on counts: an earlier "not running" is stale.
  watch.latest = null;
  const read = await api.app.status();
  if (!read.ok) return null;
  const status = read.value.reindex;
  if (!status.activeSpace && !status.pendingSpace) return null;
  const building = () => (watch.latest ?? status).running;
  if (!building() || context.signal.aborted) return { status: watch.latest ?? status, interrupted: false };
  const show = (now: ReindexStatus) =>
    bar?.update({
      done: now.done,
      total: now.total,
      label: `semantic index · ${now.pendingSpace ?? now.activeSpace}`,
    });
  show(status);
  await new Promise<void>((resolve) => {
    const finish = () => {
      watch.changed = () => {};
      context.signal.removeEventListener('abort', finish);
      resolve();
    };
    watch.changed = () => {
      if (watch.latest) show(watch.latest);
      if (!building()) finish();
    };
    context.signal.addEventListener('abort', finish, { once: true });
    if (!building()) finish();
  });
  bar?.stop();
  return { status: watch.latest ?? status, interrupted: context.signal.aborted };
}

/** "Semantic index (custom/text-embedding-v3/1024): 3/3 chunks have vectors" and what is left. */
export function formatSemantic(status: ReindexStatus, interrupted: boolean): string {
  const space = status.pendingSpace ?? status.activeSpace;
  const counts = `${status.done.toLocaleString('en')}/${status.total.toLocaleString('en')} chunks have vectors`;
  const failed = status.failedDocuments
    ? `; ${status.failedDocuments.toLocaleString('en')} document${status.failedDocuments === 1 ? '' : 's'} the model refused (tried again later, searchable by keyword)`
    : '';
  const left =
    status.done < status.total && (interrupted || !status.running)
      ? '; the rest is built by the next `cairn sync`, the app or `cairn serve`'
      : '';
  const paused = status.paused ? ' (paused)' : '';
  const error = status.error ? `\n  ${terminalText(status.error)}` : '';
  return `Semantic index (${space})${paused}: ${counts}${failed}${left}${error}`;
}

/** Resolves once `done()` holds; on Ctrl-C asks to cancel, then waits a grace period. Returns true when interrupted. */
async function waitUntil(
  done: () => boolean,
  onWake: (wake: () => void) => void,
  context: CliContext,
  cancel: () => Promise<void>,
): Promise<boolean> {
  let interrupted = false;
  await new Promise<void>((resolve) => {
    let grace: ReturnType<typeof setTimeout> | undefined;
    const finish = () => {
      if (grace) clearTimeout(grace);
      context.signal.removeEventListener('abort', onAbort);
      resolve();
    };
    const onAbort = () => {
      interrupted = true;
      grace = setTimeout(finish, CANCEL_GRACE_MS);
      void cancel().finally(() => (done() ? finish() : undefined));
    };
    onWake(() => (done() ? finish() : undefined));
    if (context.signal.aborted) onAbort();
    else context.signal.addEventListener('abort', onAbort, { once: true });
    if (done()) finish();
  });
  return interrupted;
}

export function formatCounters(c: SyncCounters): string {
  // deferred and skipped only when something was: they are rare and not failures.
  const extra = `${c.deferred ? ` · deferred ${c.deferred}` : ''}${c.skipped ? ` · skipped ${c.skipped}` : ''}`;
  return `seen ${c.seen} · added ${c.added} · updated ${c.updated} · unchanged ${c.unchanged} · deleted ${c.deleted} · failed ${c.failed}${extra} · chunks written ${c.chunksWritten}`;
}

/** "12 sheet, 3 mindnote": the platform's own kind names, most first. */
export function formatKinds(kinds: Record<string, number>): string {
  return Object.entries(kinds)
    .filter(([, count]) => count > 0)
    .sort(([, a], [, b]) => b - a)
    .map(([kind, count]) => `${count} ${kind}`)
    .join(', ');
}

/** The lines that explain what a sync left for later or could not read (never failures). */
export function notesLines(deferred: number, kinds: Record<string, number>): string[] {
  const lines: string[] = [];
  if (deferred > 0)
    lines.push(
      `${deferred.toLocaleString('en')} document${deferred === 1 ? '' : 's'} deferred: the platform asked Cairn to stop for now (request limit or quota); the next sync takes ${deferred === 1 ? 'it' : 'them'}, nothing is lost`,
    );
  const skipped = formatKinds(kinds);
  if (skipped) lines.push(`skipped, no text to read: ${skipped}`);
  return lines;
}

export function formatRun(run: SyncRunReport): string {
  const seconds = run.finishedAt
    ? ` in ${((Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000).toFixed(1)} s`
    : '';
  const lines = [`${run.name}: ${run.status}${seconds}`, `  ${formatCounters(run.counters)}`];
  if (run.error) lines.push(`  error: ${run.error.message} (${run.error.code})`);
  for (const note of notesLines(run.counters.deferred ?? 0, run.skippedKinds ?? {})) lines.push(`  ${note}`);
  // Indexed, but the platform gave less than the document holds (e.g. a bitable that answered no rows).
  const partial = run.notes.filter((note) => note.status === 'partial');
  for (const note of partial.slice(0, 10)) lines.push(`  ! ${terminalText(note.title)}: ${note.reason}`);
  if (partial.length > 10) lines.push(`  … and ${partial.length - 10} more indexed in part`);
  for (const error of run.errors.slice(0, 10))
    lines.push(`  ✗ ${terminalText(error.externalId)}: ${error.message}`);
  if (run.errors.length > 10)
    lines.push(`  … and ${run.errors.length - 10} more (cairn sync --json lists them all)`);
  return lines.join('\n');
}

/** A start refused because a sync of the connection is running now (not because it is being edited). */
function isRunningElsewhere(error: AppErrorData): boolean {
  return error.code === 'ALREADY_SYNCING' && error.details?.running === true;
}
