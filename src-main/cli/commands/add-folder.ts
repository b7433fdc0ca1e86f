import { basename } from 'node:path';
import type { NewConnection } from '@shared/models';
import { parseCommandArgs, parseModeArgument } from '../args';
import type { CliCommand } from '../command';
import { report } from '../output';
import { expandHome } from '../../core/connectors/folder/home-path';

export const addFolderCommand: CliCommand = {
  name: 'add-folder',
  summary:
    'Add a local folder (Markdown/text, PDF, Word, PowerPoint, Excel/CSV, HTML, EPUB; an Obsidian vault works)',
  usage:
    'cairn add-folder <path> [--name <name>] [--mode rag|direct] [--exclude <pattern>]... [--no-watch] [--json]',
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(
      args,
      {
        name: { type: 'string' },
        mode: { type: 'string' },
        exclude: { type: 'string', multiple: true },
        'no-watch': { type: 'boolean' },
        json: { type: 'boolean' },
      },
      { min: 1, max: 1, names: 'the folder <path>' },
    );
    // `~` works even where no shell expanded it (quoted, or from a config file).
    const path = expandHome(positionals[0] ?? '');
    // Loaded here, not at start: it brings the `ignore` package, which other commands never need.
    const { parseExcludePatterns } = await import('../../core/connectors/folder/exclusions');
    const exclude = (values.exclude ?? []).flatMap(parseExcludePatterns);
    const json = values.json ?? false;
    const input: NewConnection = {
      platform: 'folder',
      name: values.name ?? basename(path),
      mode: parseModeArgument(values.mode, '--mode') ?? 'rag',
      config: {
        path,
        ...(exclude.length > 0 ? { exclude: exclude.join(', ') } : {}),
        ...(values['no-watch'] ? { noWatch: true } : {}),
      },
      secrets: {},
    };
    const { api } = await context.open();
    // Checked before saving, so a mistyped path never becomes a broken connection.
    const checked = await api.connections.testNew(input);
    if (!checked.ok) return report(context, json, checked, () => '');
    const added = await api.connections.add(input);
    return report(context, json, added, (view) =>
      [
        `Added folder "${view.name}" (id ${view.id}, ${view.mode} mode): ${checked.value.message}`,
        view.mode === 'rag'
          ? `Index it now with: cairn sync ${JSON.stringify(view.name)}`
          : 'Direct mode: it is searched live, nothing is indexed.',
      ].join('\n'),
    );
  },
};
