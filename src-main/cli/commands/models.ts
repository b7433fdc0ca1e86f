/**
 * `cairn models list|pull|import|remove`: local embedding models and rerankers. Pull shows a
 * progress bar on a terminal, stops on Ctrl-C (the next pull resumes), and takes --mirror <url>
 * over CAIRN_MODEL_MIRROR and the setting.
 */
import type { ModelsSnapshot, ModelView } from '@shared/models';
import { parseCommandArgs, UsageError } from '../args';
import type { CliCommand, CliContext } from '../command';
import { formatTable, report } from '../output';
import { createProgressBar } from '../progress-bar';

const USAGE = [
  'cairn models list [--json]',
  '       cairn models pull <id> [--mirror <url>] [--json]',
  '       cairn models import <id> <folder> [--allow-unverified] [--json]',
  '       cairn models remove <id> [--json]',
].join('\n');

function megabytes(bytes: number | null): string {
  return bytes === null ? '?' : `${Math.max(0.1, bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0)} MB`;
}

function statusOf(model: ModelView): string {
  if (model.download?.state === 'running') return 'downloading';
  if (model.installed)
    return `installed${model.installed.verified ? '' : ' (unverified)'}${model.inUse ? ', in use' : ''}`;
  if (model.unavailableReason) return 'unavailable here';
  return model.downloadable ? 'not installed' : 'import only';
}

export function formatModels(snapshot: ModelsSnapshot): string {
  const rows = snapshot.models.map((m) => [
    m.id + (m.recommended ? ` (${m.recommended})` : ''),
    m.kind,
    megabytes(m.installed?.bytes ?? m.downloadBytes),
    m.dimensions ? String(m.dimensions) : '—',
    m.languages.join(', '),
    m.licence,
    m.speed.cpuMsPerChunk
      ? `${(1000 / m.speed.cpuMsPerChunk).toFixed(1)} chunks/s/core`
      : m.speed.cpuMsPerPair
        ? `${Math.round(m.speed.cpuMsPerPair)} ms/pair`
        : '—',
    statusOf(m),
  ]);
  const source = `${snapshot.source.kind} ${snapshot.source.url}${snapshot.source.fromEnv ? ' (CAIRN_MODEL_MIRROR)' : ''}`;
  return [
    formatTable(
      ['ID', 'KIND', 'SIZE', 'DIMS', 'LANGUAGES', 'LICENCE', 'SPEED (2 cores, measured)', 'STATUS'],
      rows,
    ),
    '',
    `Models folder: ${snapshot.dir} · download source: ${source}`,
    ...(snapshot.models[0]?.unavailableReason ? [snapshot.models[0].unavailableReason] : []),
  ].join('\n');
}

async function pull(
  id: string,
  mirror: string | undefined,
  json: boolean,
  context: CliContext,
): Promise<number> {
  const cairn = await context.open();
  const bar = createProgressBar(context.stderr as never);
  const ended = new Promise<ModelsSnapshot>((resolve) => {
    const stop = cairn.events.on('models.changed', (snapshot) => {
      const view = snapshot.models.find((m) => m.id === id);
      if (view && view.download?.state !== 'running') {
        stop();
        resolve(snapshot);
      }
    });
  });
  const progress = cairn.events.on('models.progress', (event) => {
    if (event.id !== id) return;
    const total = event.totalBytes ?? 0;
    bar.update({
      done: Math.round(event.doneBytes / 1e6),
      total: Math.round(total / 1e6),
      label: `MB ${event.phase} ${id}`,
    });
  });
  const onAbort = () => void cairn.api.models.cancel({ id });
  context.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const started = await cairn.api.models.pull({ id, ...(mirror ? { mirror } : {}) });
    if (!started.ok) return report(context, json, started, () => '');
    const snapshot = await ended;
    const view = snapshot.models.find((m) => m.id === id)!;
    bar.stop();
    if (view.download?.error)
      return report(context, json, { ok: false, error: view.download.error }, () => '');
    if (view.download?.state === 'cancelled')
      return report(
        context,
        json,
        { ok: false, error: { code: 'CANCELLED', message: 'Cancelled; the next pull resumes.' } },
        () => '',
      );
    return report(context, json, { ok: true, value: view }, (m) =>
      [
        `Installed ${m.name} (${megabytes(m.installed?.bytes ?? null)}, every file's SHA-256 verified).`,
        m.kind === 'embedder'
          ? `Use it: in Settings, or CAIRN_EMBED_PROVIDER=local CAIRN_EMBED_MODEL=${m.id}`
          : `Searches now rerank with it (CAIRN_RERANK_MODEL=none turns it off).`,
      ].join('\n'),
    );
  } finally {
    bar.stop();
    progress();
    context.signal.removeEventListener('abort', onAbort);
  }
}

export const modelsCommand: CliCommand = {
  name: 'models',
  summary: 'List, download (pull), import or remove local embedding models and rerankers',
  usage: USAGE,
  async run(args, context) {
    const [sub, ...rest] = args;
    const options = {
      json: { type: 'boolean' },
      mirror: { type: 'string' },
      'allow-unverified': { type: 'boolean' },
    } as const;
    if (sub === 'list') {
      const { values } = parseCommandArgs(rest, { json: options.json }, { min: 0, max: 0, names: '' });
      const { api } = await context.open();
      return report(context, values.json ?? false, await api.models.list(), formatModels);
    }
    if (sub === 'pull') {
      const { values, positionals } = parseCommandArgs(
        rest,
        { json: options.json, mirror: options.mirror },
        { min: 1, max: 1, names: '<id>' },
      );
      return pull(positionals[0]!, values.mirror, values.json ?? false, context);
    }
    if (sub === 'import') {
      const { values, positionals } = parseCommandArgs(
        rest,
        { json: options.json, 'allow-unverified': options['allow-unverified'] },
        { min: 2, max: 2, names: '<id> <folder>' },
      );
      const { api } = await context.open();
      const result = await api.models.import({
        id: positionals[0]!,
        folder: positionals[1]!,
        allowUnverified: values['allow-unverified'] ?? false,
      });
      return report(
        context,
        values.json ?? false,
        result,
        (m) =>
          `Imported ${m.name}${m.installed?.verified ? ' (every file verified against the catalogue)' : ' (UNVERIFIED files accepted by --allow-unverified)'}.`,
      );
    }
    if (sub === 'remove') {
      const { values, positionals } = parseCommandArgs(
        rest,
        { json: options.json },
        { min: 1, max: 1, names: '<id>' },
      );
      const { api } = await context.open();
      const result = await api.models.remove({ id: positionals[0]! });
      return report(context, values.json ?? false, result, () => `Removed ${positionals[0]}.`);
    }
    if (sub === undefined) throw new UsageError('Missing a subcommand: list, pull, import or remove.');
    throw new UsageError(`Unknown subcommand "${sub}": list, pull, import or remove.`);
  },
};
