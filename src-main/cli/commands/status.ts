import type {
  ConnectionView,
  DataDirStorage,
  DocumentError,
  SettingsView,
  StatusSnapshot,
} from '@shared/models';
import { megabytes } from '../../core/db/disk-space';
import { QUARANTINE_REASON } from '../../core/sync/crash-journal';
import { parseCommandArgs } from '../args';
import type { AnsweredBy } from '../../instance/protocol';
import { describeInstance } from '../../instance/session';
import type { CliCommand } from '../command';
import { formatTable, formatTime, report, terminalText } from '../output';
import { notesLines } from './sync';

export const statusCommand: CliCommand = {
  name: 'status',
  summary: 'Show the data directory, settings and every connection with its counts',
  usage: 'cairn status [--json]',
  async run(args, context) {
    const { values } = parseCommandArgs(args, { json: { type: 'boolean' } }, { min: 0, max: 0, names: '' });
    const { api, answeredBy } = await context.open();
    const status = await api.app.status();
    const setAside = status.ok ? await quarantinedFiles(api, status.value) : {};
    // --json carries who answered beside the snapshot; a test's in-memory Cairn has no such process.
    const result = status.ok
      ? {
          ok: true as const,
          value: {
            ...status.value,
            ...(answeredBy ? { answeredBy } : {}),
            ...(Object.keys(setAside).length > 0 ? { quarantined: setAside } : {}),
          },
        }
      : status;
    return report(context, values.json ?? false, result, (value) =>
      [formatStatus(value, setAside), ...(answeredBy ? ['', formatAnsweredBy(answeredBy)] : [])].join('\n'),
    );
  },
};

/**
 * When a connection syncs next: what the scheduler recorded, else (the CLI runs no scheduler, so a
 * sync started here records none) its last sync plus the interval, as the app's scheduler will do.
 */
export function nextSyncOf(connection: ConnectionView, settings: SettingsView): string | null {
  if (connection.mode !== 'rag') return null;
  if (connection.nextSyncAt) return connection.nextSyncAt;
  if (!connection.lastSyncAt) return null;
  return new Date(Date.parse(connection.lastSyncAt) + settings.syncIntervalHours * 3_600_000).toISOString();
}

/** "Next sync: notes in 3 h (2026-11-30 14:05)", the soonest one; paused or none says so. */
export function nextScheduled(status: StatusSnapshot, now = Date.now()): string | null {
  const rag = status.connections.filter((c) => c.mode === 'rag');
  if (rag.length === 0) return null;
  if (status.settings.scheduledSyncPaused)
    return 'Next sync: scheduled syncs are paused (`cairn sync` runs one now).';
  const soonest = rag
    .map((c) => ({ name: c.name, at: nextSyncOf(c, status.settings) }))
    .filter((c): c is { name: string; at: string } => c.at !== null)
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at))[0];
  if (!soonest) return 'Next sync: none scheduled yet (`cairn sync` runs the first one).';
  const minutes = Math.round((Date.parse(soonest.at) - now) / 60_000);
  const when =
    minutes <= 1 ? 'due now' : minutes < 60 ? `in ${minutes} min` : `in ${Math.round(minutes / 60)} h`;
  return `Next sync: ${soonest.name} ${when} (${formatTime(soonest.at)}), while the app or \`cairn serve\` runs.`;
}

/** "48 MB on disk (index 41 MB), 51,384 MB free on /" */
export function storageLine(storage: DataDirStorage): string {
  const free =
    storage.freeBytes === null ? '' : `, ${megabytes(storage.freeBytes)} free on ${storage.volume}`;
  return `${megabytes(storage.totalBytes)} on disk (index ${megabytes(storage.databaseBytes)})${free}`;
}

/**
 * Documents each connection's last run set aside because reading them killed Cairn twice
 * (core/sync/crash-journal.ts), by connection id: `cairn status` names them.
 */
async function quarantinedFiles(
  api: Awaited<ReturnType<Parameters<CliCommand['run']>[1]['open']>>['api'],
  status: StatusSnapshot,
): Promise<Record<string, DocumentError[]>> {
  const found: Record<string, DocumentError[]> = {};
  for (const connection of status.connections) {
    if (connection.mode !== 'rag' || !connection.lastSyncAt) continue;
    const runs = await api.sync.runs({ connectionId: connection.id, limit: 1 });
    const setAside = runs.ok
      ? (runs.value[0]?.errors ?? []).filter((e) => e.reason === QUARANTINE_REASON)
      : [];
    if (setAside.length > 0) found[connection.id] = setAside;
  }
  return found;
}

/** The search index in words: keyword only, or keyword + a semantic model's vectors and how far they are. */
export function describeIndex(reindex: StatusSnapshot['reindex']): string {
  if (!reindex.activeSpace && !reindex.pendingSpace)
    return reindex.error
      ? `keyword search · ${reindex.error}`
      : 'keyword search; add a semantic model for meaning-based search';
  const into = reindex.pendingSpace ?? reindex.activeSpace;
  const progress = `${reindex.done.toLocaleString('en')}/${reindex.total.toLocaleString('en')} chunks`;
  const state = reindex.paused
    ? ` (paused at ${progress})`
    : reindex.done >= reindex.total
      ? ''
      : reindex.running
        ? ` (building ${into}: ${progress}${reindex.etaSeconds ? `, about ${formatSeconds(reindex.etaSeconds)} left` : ''})`
        : ` (${into}: ${progress} have vectors; the rest is built while the app, \`cairn serve\` or \`cairn sync\` runs)`;
  const error = reindex.error ? ` · ${reindex.error}` : '';
  return `keyword + semantic (${reindex.activeSpace || 'none yet'})${state}${error}`;
}

function formatSeconds(seconds: number): string {
  return seconds < 90
    ? `${Math.round(seconds)} s`
    : seconds < 5400
      ? `${Math.round(seconds / 60)} min`
      : `${Math.round(seconds / 3600)} h`;
}

export function formatStatus(
  status: StatusSnapshot,
  quarantined: Record<string, DocumentError[]> = {},
): string {
  const { chat } = status.settings;
  const lines = [
    `Cairn ${status.version}`,
    `Data directory: ${status.dataDir}${status.storage ? ` · ${storageLine(status.storage)}` : ''}`,
    // The semantic model in effect (settings or CAIRN_EMBED_*) is on the Index line, from the index itself.
    `Chat: ${chat.provider}${chat.model ? ` ${chat.model}` : ''}`,
    `Scheduled sync: ${status.settings.scheduledSyncPaused ? 'paused' : `every ${status.settings.syncIntervalHours} h`}`,
    `Index: ${describeIndex(status.reindex)}`,
    '',
  ];
  if (status.connections.length === 0) {
    lines.push('No connections yet. Add one with `cairn add-folder <path>` or `cairn add <platform> …`.');
    return lines.join('\n');
  }
  const rows = status.connections.map((c) => {
    const running = status.syncing[c.id];
    // A stopped run puts the connection back to its status before it, with a CANCELLED note.
    const state = running
      ? `syncing ${running.phase} ${running.documentsDone}/${running.documentsTotal}`
      : c.syncErrorCode === 'CANCELLED' && c.syncStatus !== 'failed'
        ? 'stopped'
        : c.syncStatus;
    return [
      c.name,
      c.platform + (c.experimental ? '*' : ''),
      c.mode,
      state,
      String(c.documentCount),
      String(c.chunkCount),
      formatTime(c.lastSyncAt),
      c.mode === 'rag' ? formatTime(nextSyncOf(c, status.settings)) : '—',
    ];
  });
  lines.push(
    formatTable(['NAME', 'PLATFORM', 'MODE', 'STATUS', 'DOCS', 'CHUNKS', 'LAST SYNC', 'NEXT SYNC'], rows),
  );
  const next = nextScheduled(status);
  if (next) lines.push(next);
  for (const c of status.connections) {
    if (c.syncError) lines.push(`${c.name}: ${c.syncError}`);
    for (const note of notesLines(c.deferred ?? 0, c.skippedKinds ?? {})) lines.push(`${c.name}: ${note}`);
    if (c.directOnly)
      lines.push(`${c.name}: no full text from this platform: searched live (direct mode) only`);
    if (c.limitation) lines.push(`${c.name}: ${c.limitation}`);
    const setAside = quarantined[c.id] ?? [];
    if (setAside.length > 0)
      lines.push(
        `${c.name}: set aside after Cairn stopped twice while reading ${setAside.length === 1 ? 'it' : 'them'} (not read again until changed): ${setAside
          .slice(0, 10)
          .map((e) => terminalText(e.externalId))
          .join(', ')}${setAside.length > 10 ? ` and ${setAside.length - 10} more` : ''}`,
      );
  }
  if (status.connections.some((c) => c.experimental)) lines.push('* experimental platform');
  return lines.join('\n');
}

/** Which process answered: the running instance over its socket, or this one. */
export function formatAnsweredBy(by: AnsweredBy): string {
  return by.via === 'socket'
    ? `Answered by ${describeInstance(by)}, running since ${formatTime(by.startedAt)}, over ${by.address}.`
    : `Answered by this process (pid ${by.pid}): no Cairn instance was running, so it opened the data directory itself.`;
}
