import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DocumentRef } from '../connectors/connector';
import { FileDocumentJournal, recoverCrashJournal } from './crash-journal';

let folder: string;

function ref(externalId: string, revision: string | null = 'r1'): DocumentRef {
  return {
    externalId,
    title: `Title of ${externalId}`,
    knowledgeBase: 'kb',
    url: null,
    remoteUpdatedAt: null,
    revision,
  };
}

/** A process that began these documents and died before ending them (the journal is left open). */
function crashWhileReading(connectionId: string, ids: string[], revision = 'r1'): void {
  const journal = new FileDocumentJournal(folder);
  for (const id of ids) journal.begin(connectionId, ref(id, revision));
  journal.close();
}

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'cairn-journal-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

describe('the crash journal', () => {
  it('leaves nothing behind for a run that ends', () => {
    const journal = new FileDocumentJournal(folder);
    journal.begin('c1', ref('a.md'));
    journal.end('c1', 'a.md');
    journal.finish('c1');
    expect(recoverCrashJournal(folder)).toEqual(new Map());
    expect(new FileDocumentJournal(folder).suspects('c1')).toEqual(new Set());
  });

  it('makes the documents in hand at a crash suspects, and quarantines one in hand at a second crash', () => {
    crashWhileReading('c1', ['a.md', 'bomb.docx', 'b.md']);
    expect(recoverCrashJournal(folder)).toEqual(new Map());
    const second = new FileDocumentJournal(folder);
    expect(second.suspects('c1')).toEqual(new Set(['a.md', 'bomb.docx', 'b.md']));
    // The next run reads its suspects alone: a.md ends well, then bomb.docx kills the process.
    second.begin('c1', ref('a.md'));
    second.end('c1', 'a.md');
    second.begin('c1', ref('bomb.docx'));
    second.close();
    expect(recoverCrashJournal(folder)).toEqual(
      new Map([['c1', [{ externalId: 'bomb.docx', title: 'Title of bomb.docx', revision: 'r1' }]]]),
    );
    // b.md was never read since: still a suspect; a.md was cleared; bomb.docx is out of the journal.
    expect(new FileDocumentJournal(folder).suspects('c1')).toEqual(new Set(['b.md']));
  });

  it('counts again from zero for a suspect whose revision changed', () => {
    crashWhileReading('c1', ['a.md'], 'r1');
    recoverCrashJournal(folder);
    crashWhileReading('c1', ['a.md'], 'r2');
    expect(recoverCrashJournal(folder)).toEqual(new Map());
    expect(new FileDocumentJournal(folder).suspects('c1')).toEqual(new Set(['a.md']));
  });

  it('keeps suspects per connection, and drops them once read to the end', () => {
    crashWhileReading('c1', ['a.md']);
    crashWhileReading('c/2', ['x.md']);
    recoverCrashJournal(folder);
    const journal = new FileDocumentJournal(folder);
    expect(journal.suspects('c/2')).toEqual(new Set(['x.md']));
    journal.begin('c1', ref('a.md'));
    journal.end('c1', 'a.md');
    journal.finish('c1');
    expect(existsSync(join(folder, 'c1.log'))).toBe(false);
    expect(new FileDocumentJournal(folder).suspects('c1')).toEqual(new Set());
  });

  it('ignores a line torn by a crash', () => {
    crashWhileReading('c1', ['a.md']);
    appendFileSync(join(folder, 'c1.log'), '{"b":"half-writ');
    recoverCrashJournal(folder);
    expect(readFileSync(join(folder, 'c1.log'), 'utf8')).toContain('"s":"a.md"');
    expect(new FileDocumentJournal(folder).suspects('c1')).toEqual(new Set(['a.md']));
  });

  it('records a source without revisions as the empty revision', () => {
    crashWhileReading('c1', ['a'], '');
    recoverCrashJournal(folder);
    const journal = new FileDocumentJournal(folder);
    journal.begin('c1', ref('a', null));
    journal.close();
    expect(recoverCrashJournal(folder).get('c1')).toEqual([
      { externalId: 'a', title: 'Title of a', revision: '' },
    ]);
  });
});
