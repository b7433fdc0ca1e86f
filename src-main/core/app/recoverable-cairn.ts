/**
 * The app and `cairn serve` on a data directory whose database Cairn refused to open: instead of
 * exiting, they hold the data directory and answer every call with the refusal (DATA_DIR_DAMAGED,
 * naming the folder and why), so the UI can show it with its two ways on, except `app.recover`,
 * which moves the damaged database aside (data-dir-recovery.ts) and opens a new one in place. The
 * transports keep the same `api` and `events` throughout: calls and events go to whichever Cairn
 * is open now. One-shot commands do not use this: they print the refusal and exit.
 */
import { buildApiProxy } from '@shared/bridge';
import type { CairnApi } from '@shared/contract';
import type { AppErrorData, Result } from '@shared/errors';
import type { RecoveryAction, RecoveryReport } from '@shared/models';
import { CairnError, toErrorData, toResult } from '../errors';
import { EventBus, type Unsubscribe } from '../events/event-bus';
import { createLogger, type Logger } from '../logging/logger';
import type { Cairn } from './cairn';
import { acquireDataDirLock, type DataDirLock } from './data-dir';
import { setAsideDamagedDatabase } from './data-dir-recovery';
import type { CairnInternals } from './create-cairn';

export interface RecoverableCairn extends Cairn {
  logger: Logger;
  /** The refusal while the database is not open, else null. */
  refusal(): AppErrorData | null;
}

export interface RecoverableCairnOptions {
  dataDir: string;
  /** Opens Cairn on the data directory (createCairn with the shell's options). */
  open: () => Promise<CairnInternals>;
  logger?: Logger;
}

export async function openRecoverableCairn(options: RecoverableCairnOptions): Promise<RecoverableCairn> {
  const events = new EventBus();
  const logger = options.logger ?? createLogger({ level: 'warn' });
  let current: CairnInternals | null = null;
  let stopForwarding: Unsubscribe | null = null;
  let refusal: AppErrorData | null = null;
  let heldLock: DataDirLock | null = null;
  let recovering: Promise<Result<RecoveryReport>> | null = null;

  const adopt = (cairn: CairnInternals) => {
    current = cairn;
    refusal = null;
    stopForwarding = cairn.events.onAny((name, payload) => events.emit(name, payload));
  };

  /** Opens Cairn; a refused database leaves this holding the data directory with the refusal. */
  const openOrHold = async () => {
    try {
      adopt(await options.open());
    } catch (error) {
      if (!(error instanceof CairnError) || error.code !== 'DATA_DIR_DAMAGED') throw error;
      refusal = toErrorData(error);
      logger.error('the database was refused; waiting for a recovery choice', { refusal: refusal.message });
      // Held while the refusal is shown, so no other process opens (or re-creates) the folder meanwhile.
      heldLock = await acquireDataDirLock(options.dataDir);
    }
  };

  const recover = (action: RecoveryAction): Promise<Result<RecoveryReport>> =>
    (recovering ??= toResult(async () => {
      const report = await setAsideDamagedDatabase(options.dataDir, action);
      await heldLock?.release();
      heldLock = null;
      await openOrHold();
      if (!current)
        throw new CairnError(refusal?.code ?? 'INTERNAL', refusal?.message ?? 'Cairn did not open.');
      const opened: CairnInternals = current;
      // The scheduler would start them too; asking here makes the rebuild start with scheduling off.
      if (action === 'rebuild') await opened.api.sync.startAll();
      logger.info('recovered the data directory', { ...report });
      return report;
    }).finally(() => (recovering = null)));

  const apiFor = (signal?: AbortSignal): CairnApi =>
    buildApiProxy(async (channel, input) => {
      const cairn = current;
      if (cairn) {
        const [domain = '', method = ''] = channel.split('.');
        const api = (signal ? cairn.cancellable(signal) : cairn.api) as unknown as Record<
          string,
          Record<string, (input: unknown) => Promise<Result<unknown>>>
        >;
        return api[domain]![method]!(input);
      }
      if (channel === 'app.recover') return recover((input as { action: RecoveryAction }).action);
      return { ok: false, error: refusal ?? { code: 'INTERNAL', message: 'Cairn is not open.' } };
    });

  await openOrHold();
  const api = apiFor();
  return {
    api,
    cancellable: (signal) => apiFor(signal),
    events,
    dataDir: options.dataDir,
    logger,
    refusal: () => refusal,
    dispose: async () => {
      await recovering;
      stopForwarding?.();
      await (current as CairnInternals | null)?.dispose();
      await heldLock?.release();
    },
  };
}
