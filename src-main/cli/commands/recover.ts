/**
 * `cairn recover --rebuild | --fresh`: the way on from a database Cairn refused to open
 * (DATA_DIR_DAMAGED). Both move the damaged folder aside into the data directory and keep it.
 * --rebuild restores the connections from manifest.json and syncs them to rebuild the index;
 * --fresh starts empty. When the app or `cairn serve` holds the data directory (showing the same
 * refusal), it does the recovery; otherwise this process does.
 */
import type { RecoveryAction, RecoveryReport } from '@shared/models';
import { CairnError, toErrorData } from '../../core/errors';
import { parseCommandArgs, UsageError } from '../args';
import type { CliCommand, CliContext } from '../command';
import { reportError, writeJson, writeLine } from '../output';
import { syncCommand } from './sync';

const USAGE =
  'cairn recover --rebuild | --fresh [--json]\n' +
  '  --rebuild  move the damaged database aside, restore the connections (and find their secrets), sync them again\n' +
  '  --fresh    move the damaged database and its connections aside and start empty';

export const recoverCommand: CliCommand = {
  name: 'recover',
  summary: 'After a damaged database was refused: rebuild the index keeping connections, or start fresh',
  usage: USAGE,
  async run(args, context) {
    const { values } = parseCommandArgs(
      args,
      { rebuild: { type: 'boolean' }, fresh: { type: 'boolean' }, json: { type: 'boolean' } },
      { min: 0, max: 0, names: '' },
    );
    if (values.rebuild === values.fresh) throw new UsageError('Give one of --rebuild or --fresh.');
    const action: RecoveryAction = values.rebuild ? 'rebuild' : 'fresh';
    const json = values.json ?? false;

    let opened;
    try {
      opened = await context.open();
    } catch (error) {
      if (!(error instanceof CairnError) || error.code !== 'DATA_DIR_DAMAGED') throw error;
      return recoverHere(action, context, json);
    }
    // Someone holds the data directory: the app or `cairn serve` showing the refusal recovers it;
    // a Cairn that opened its database answers that there is nothing to recover.
    const recovered = await opened.api.app.recover({ action });
    if (!recovered.ok) return reportError(context, recovered.error, json);
    if (json) writeJson(context, recovered);
    else {
      writeLine(context.stdout, describe(recovered.value));
      if (action === 'rebuild')
        writeLine(
          context.stdout,
          'The running Cairn is syncing them: follow it there or with `cairn status`.',
        );
    }
    return 0;
  },
};

/** Nobody holds the data directory: move the database aside under its lock, then go on here. */
async function recoverHere(action: RecoveryAction, context: CliContext, json: boolean): Promise<number> {
  const { acquireDataDirLock } = await import('../../core/app/data-dir');
  const { setAsideDamagedDatabase } = await import('../../core/app/data-dir-recovery');
  const root = context.dataDirPath();
  let report: RecoveryReport;
  try {
    const lock = await acquireDataDirLock(root);
    try {
      report = await setAsideDamagedDatabase(root, action);
    } finally {
      await lock.release();
    }
  } catch (error) {
    return reportError(context, toErrorData(error), json);
  }
  if (action === 'fresh') {
    if (json) writeJson(context, { ok: true, value: report });
    else writeLine(context.stdout, `${describe(report)}\nCairn starts empty at its next start.`);
    return 0;
  }
  // Opening now creates the new database with the connections; the sync rebuilds their index.
  if (!json) writeLine(context.stdout, `${describe(report)}\nRebuilding the index:`);
  return syncCommand.run(json ? ['--json'] : [], context);
}

function describe(report: RecoveryReport): string {
  return report.action === 'rebuild'
    ? `Moved the damaged database to ${report.movedTo}; restored ${report.connections} connection${report.connections === 1 ? '' : 's'} from manifest.json.`
    : `Moved the damaged database and its connections to ${report.movedTo}.`;
}
