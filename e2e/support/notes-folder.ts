/** A user's notes folder for local-folder connections: the Markdown in e2e/fixtures/notes plus one binary file. */
import { cpSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const NOTES_FIXTURE_DIR = join(process.cwd(), 'e2e', 'fixtures', 'notes');

/** A scanned receipt saved with a text extension: listed, then refused as binary when fetched. */
export const BINARY_NOTE = 'scanned-receipt.txt';

export function notesFixtureCount(): number {
  return readdirSync(NOTES_FIXTURE_DIR).filter((name) => name.endsWith('.md')).length;
}

export function writeNotesFolder(target: string): string {
  mkdirSync(target, { recursive: true });
  cpSync(NOTES_FIXTURE_DIR, target, { recursive: true });
  writeFileSync(
    join(target, BINARY_NOTE),
    Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0x01, 0x02, 0x00, 0xff, 0xfe]),
  );
  return target;
}
