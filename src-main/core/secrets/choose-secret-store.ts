/**
 * Which secret store a headless Cairn (CLI, `cairn serve`) uses on an on-disk data directory:
 * the OS keychain when one answers, else the owner-only file, which the UI then calls what it is
 * ("stored unencrypted in <path>"). CAIRN_SECRET_STORE=keychain|file forces the choice
 * (keychain: fail rather than fall back). Secrets a file holds from before a keychain was available
 * move into the keychain, and the file is removed once every one of them reads back.
 */
import { rm } from 'node:fs/promises';
import { CairnError } from '../errors';
import type { Logger } from '../logging/logger';
import { FileSecretStore } from './file-secret-store';
import { KeyringSecretStore } from './keyring-secret-store';
import type { SecretStore } from './secret-store';

export interface SecretStoreChoice {
  dataDir: string;
  /** The owner-only file (the fallback, and where older secrets may wait to move). */
  secretsFile: string;
  env: NodeJS.ProcessEnv;
  logger: Logger;
}

export async function chooseSecretStore(choice: SecretStoreChoice): Promise<SecretStore> {
  const wanted = choice.env['CAIRN_SECRET_STORE']?.trim().toLowerCase() ?? '';
  if (wanted !== '' && wanted !== 'keychain' && wanted !== 'file')
    throw new CairnError('INVALID_ARGUMENT', `CAIRN_SECRET_STORE is "${wanted}": use keychain or file.`);
  const file = new FileSecretStore(choice.secretsFile);
  if (wanted === 'file') return file;
  const { store, reason } = await KeyringSecretStore.open(choice.dataDir);
  if (!store) {
    if (wanted === 'keychain')
      throw new CairnError('UNSUPPORTED', `CAIRN_SECRET_STORE=keychain, but no keychain answers: ${reason}.`);
    choice.logger.warn('no system keychain: secrets are kept in an owner-only file, not encrypted', {
      reason,
      file: choice.secretsFile,
    });
    return file;
  }
  await moveIntoKeychain(file, store, choice.logger);
  return store;
}

/** Moves what an older run left in the plain file into the keychain, then deletes the file. */
async function moveIntoKeychain(file: FileSecretStore, keychain: SecretStore, logger: Logger): Promise<void> {
  const refs = await file.refs();
  if (refs === null) return;
  for (const ref of refs) {
    const values = await file.get(ref);
    if (values) await keychain.set(ref, values);
  }
  for (const ref of refs) {
    const [before, after] = [await file.get(ref), await keychain.get(ref)];
    if (JSON.stringify(before) !== JSON.stringify(after))
      throw new CairnError('INTERNAL', `A secret moved into the system keychain did not read back the same.`);
  }
  await rm(file.filePath, { force: true });
  logger.info('moved secrets from the plain file into the system keychain', { count: refs.length });
}
