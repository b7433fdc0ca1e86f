/**
 * Headless secret store: one JSON file readable only by its owner (0600, in a 0700 folder when
 * we create it), replaced atomically (temp file + rename) so a crash never leaves half a file.
 * It is NOT encrypted, and says so in `protection`. Values never reach logs or error messages.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CairnError } from '../errors';
import type { SecretStorageView } from '@shared/models';
import type { SecretStore } from './secret-store';

type SecretMap = Record<string, Record<string, string>>;

interface SecretFile {
  version: 1;
  secrets: SecretMap;
}

const OWNER_ONLY_FILE = 0o600;
const OWNER_ONLY_DIR = 0o700;

export class FileSecretStore implements SecretStore {
  readonly protection: string;
  readonly storage: SecretStorageView;
  /** Serialises read-modify-write cycles within this process. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(readonly filePath: string) {
    this.protection = `Not encrypted: secrets are kept in plain text in ${filePath}, readable only by your user account.`;
    this.storage = { kind: 'plain-file', path: filePath };
  }

  async get(ref: string): Promise<Record<string, string> | null> {
    const found = (await this.serial(() => this.read()))[ref];
    return found ? { ...found } : null;
  }

  /** The refs stored, or null when there is no file at all. */
  async refs(): Promise<string[] | null> {
    try {
      await stat(this.filePath);
    } catch {
      return null;
    }
    return Object.keys(await this.serial(() => this.read()));
  }

  async set(ref: string, values: Record<string, string>): Promise<void> {
    for (const [key, value] of Object.entries(values)) {
      if (typeof value !== 'string')
        throw new CairnError('INVALID_ARGUMENT', `Secret field "${key}" must be a string.`);
    }
    await this.serial(async () => {
      const secrets = await this.read();
      secrets[ref] = { ...values };
      await this.write(secrets);
    });
  }

  async delete(ref: string): Promise<void> {
    await this.serial(async () => {
      const secrets = await this.read();
      if (!(ref in secrets)) return;
      delete secrets[ref];
      await this.write(secrets);
    });
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async read(): Promise<SecretMap> {
    let text: string;
    try {
      text = await readFile(this.filePath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new CairnError(
        'INTERNAL',
        `Cannot read the secret file ${this.filePath}: ${(error as NodeJS.ErrnoException).code ?? 'unknown error'}.`,
      );
    }
    await this.tightenPermissions();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // The parser's message can quote file content (a secret), so it is not passed on.
      throw new CairnError(
        'INTERNAL',
        `The secret file ${this.filePath} is not valid JSON. It was left untouched; fix or remove it.`,
      );
    }
    if (!isSecretFile(parsed))
      throw new CairnError(
        'INTERNAL',
        `The secret file ${this.filePath} has an unexpected shape. It was left untouched; fix or remove it.`,
      );
    return parsed.secrets;
  }

  private async write(secrets: SecretMap): Promise<void> {
    const dir = dirname(this.filePath);
    await mkdir(dir, { recursive: true, mode: OWNER_ONLY_DIR });
    const temp = `${this.filePath}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const body: SecretFile = { version: 1, secrets };
    try {
      const handle = await open(temp, 'wx', OWNER_ONLY_FILE);
      try {
        await handle.writeFile(JSON.stringify(body, null, 2) + '\n', 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, this.filePath);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw new CairnError(
        'INTERNAL',
        `Cannot write the secret file ${this.filePath}: ${(error as NodeJS.ErrnoException).code ?? 'unknown error'}.`,
      );
    }
  }

  /** A file copied or restored with looser permissions is brought back to owner-only. */
  private async tightenPermissions(): Promise<void> {
    if (process.platform === 'win32') return;
    const info = await stat(this.filePath);
    if ((info.mode & 0o077) !== 0) await chmod(this.filePath, OWNER_ONLY_FILE);
  }
}

function isSecretFile(value: unknown): value is SecretFile {
  if (typeof value !== 'object' || value === null) return false;
  const secrets = (value as { secrets?: unknown }).secrets;
  if (typeof secrets !== 'object' || secrets === null || Array.isArray(secrets)) return false;
  return Object.values(secrets).every(
    (entry) =>
      typeof entry === 'object' &&
      entry !== null &&
      !Array.isArray(entry) &&
      Object.values(entry).every((field) => typeof field === 'string'),
  );
}
