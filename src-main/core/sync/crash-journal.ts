/**
 * Which documents a sync had in hand when Cairn died, so that a document that kills the process
 * (a reader or a text that runs it out of memory: V8 aborts, no handler runs) is not read again
 * at every start: a watched folder holding one such file made `cairn serve` crash a minute after
 * each start, for ever.
 *
 * One append-only log per connection (`<dataDir>/sync-journal/<connection>.log`, JSON lines): a
 * document's line `b` is written before its fetch starts and `e` once it is written, failed or
 * left; a run that ends keeps only the suspects. Lines are appended with one write(2) each and
 * never fsynced: the process dying keeps what it wrote (the OS has it), and a line torn by a dying
 * machine is ignored. At the next start (`recoverCrashJournal`, while holding the data directory's
 * lock, so no sync is running) a document begun and not ended was in hand at the crash:
 *   - the first time it is a suspect: the next run reads its suspects first, one at a time, with
 *     nothing else in flight;
 *   - the second time (it was then in hand alone, or again with others) it is quarantined: the
 *     crashed run records it as failed with reason `sync.quarantined`, naming it, against its
 *     revision, so later runs carry that failure and do not read it until it changes.
 * A suspect that a run reads to the end is cleared. One kill at a random moment therefore costs a
 * document nothing but being read first next time.
 */
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { DocumentRef } from '../connectors/connector';

/** The stable reason of a quarantined document's failure (the card and `cairn status` name it). */
export const QUARANTINE_REASON = 'sync.quarantined';

/** What the sync engine tells the journal; `null` where there is no data directory (in memory). */
export interface DocumentJournal {
  /** Documents of this connection that were in hand when Cairn last stopped: read first, alone. */
  suspects(connectionId: string): ReadonlySet<string>;
  /** Before a document's fetch. */
  begin(connectionId: string, ref: DocumentRef): void;
  /** After a document was written, failed, deferred or cancelled. */
  end(connectionId: string, externalId: string): void;
  /** The run is over: the log keeps only the suspects that remain. */
  finish(connectionId: string): void;
}

export interface QuarantinedDocument {
  externalId: string;
  title: string;
  /** The revision it was read at (`''` when the source gives none). */
  revision: string;
}

interface Suspect {
  title: string;
  revision: string;
  /** Crashes it was in hand at. */
  crashes: number;
}

type Line =
  { s: string; r: string; t: string; n: number } | { b: string; r: string; t: string } | { e: string };

/** Crashes a document may be in hand at before it is quarantined. */
const CRASHES_BEFORE_QUARANTINE = 2;

function logName(connectionId: string): string {
  return `${encodeURIComponent(connectionId)}.log`;
}

function parseLines(text: string): Line[] {
  const lines: Line[] = [];
  for (const raw of text.split('\n')) {
    if (!raw) continue;
    try {
      lines.push(JSON.parse(raw) as Line);
    } catch {
      // A line torn by a crash of the machine: what it said is lost, nothing else.
    }
  }
  return lines;
}

/** Replays one connection's log: the suspects before the crash, updated with what was in hand at it. */
function replay(lines: Line[]): { suspects: Map<string, Suspect>; quarantined: QuarantinedDocument[] } {
  const suspects = new Map<string, Suspect>();
  const inHand = new Map<string, { title: string; revision: string }>();
  for (const line of lines) {
    if ('s' in line) suspects.set(line.s, { title: line.t, revision: line.r, crashes: line.n });
    else if ('b' in line) inHand.set(line.b, { title: line.t, revision: line.r });
    else if ('e' in line) {
      inHand.delete(line.e);
      suspects.delete(line.e);
    }
  }
  const quarantined: QuarantinedDocument[] = [];
  for (const [externalId, held] of inHand) {
    const before = suspects.get(externalId);
    // A suspect that changed since counts from zero again: the crash may have been its old content's.
    const crashes = (before && before.revision === held.revision ? before.crashes : 0) + 1;
    if (crashes >= CRASHES_BEFORE_QUARANTINE) {
      suspects.delete(externalId);
      quarantined.push({ externalId, title: held.title, revision: held.revision });
    } else suspects.set(externalId, { ...held, crashes });
  }
  return { suspects, quarantined };
}

function suspectLines(suspects: Map<string, Suspect>): string {
  return [...suspects]
    .map(([id, s]) => `${JSON.stringify({ s: id, r: s.revision, t: s.title, n: s.crashes })}\n`)
    .join('');
}

/**
 * Reads the logs a dead process left (call while holding the data directory's lock, before any
 * sync): returns the documents to quarantine by connection, and leaves each log holding only its
 * suspects.
 */
export function recoverCrashJournal(folder: string): Map<string, QuarantinedDocument[]> {
  const found = new Map<string, QuarantinedDocument[]>();
  let names: string[];
  try {
    names = readdirSync(folder).filter((name) => name.endsWith('.log'));
  } catch {
    return found;
  }
  for (const name of names) {
    const path = join(folder, name);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      continue;
    }
    const { suspects, quarantined } = replay(parseLines(text));
    const connectionId = decodeURIComponent(name.slice(0, -'.log'.length));
    if (quarantined.length > 0) found.set(connectionId, quarantined);
    if (suspects.size === 0) rmSync(path, { force: true });
    else writeFileSync(path, suspectLines(suspects), { mode: 0o600 });
  }
  return found;
}

/** The journal of a data directory's syncs (see the file comment). */
export class FileDocumentJournal implements DocumentJournal {
  private readonly logs = new Map<string, { fd: number; suspects: Map<string, Suspect> }>();

  constructor(private readonly folder: string) {}

  suspects(connectionId: string): ReadonlySet<string> {
    try {
      return new Set(this.log(connectionId).suspects.keys());
    } catch {
      return new Set(); // No journal (a full disk, say): no suspects, and the sync goes on.
    }
  }

  begin(connectionId: string, ref: DocumentRef): void {
    this.append(connectionId, { b: ref.externalId, r: ref.revision ?? '', t: ref.title });
  }

  end(connectionId: string, externalId: string): void {
    this.logs.get(connectionId)?.suspects.delete(externalId);
    this.append(connectionId, { e: externalId });
  }

  finish(connectionId: string): void {
    const log = this.logs.get(connectionId);
    if (!log) return;
    this.logs.delete(connectionId);
    closeSync(log.fd);
    const path = join(this.folder, logName(connectionId));
    try {
      if (log.suspects.size === 0) rmSync(path, { force: true });
      else writeFileSync(path, suspectLines(log.suspects), { mode: 0o600 });
    } catch {
      // Best effort, like append: the appended log stays, and its replay gives the same suspects.
    }
  }

  /** Ends every open log (dispose): what is in hand stays recorded, as a crash would leave it. */
  close(): void {
    for (const log of this.logs.values()) closeSync(log.fd);
    this.logs.clear();
  }

  private log(connectionId: string): { fd: number; suspects: Map<string, Suspect> } {
    let log = this.logs.get(connectionId);
    if (log) return log;
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    const path = join(this.folder, logName(connectionId));
    let text = '';
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      // No log: no suspects.
    }
    // The log holds only suspect lines between runs (recoverCrashJournal or finish wrote it).
    const { suspects } = replay(parseLines(text).filter((line) => 's' in line));
    log = { fd: openSync(path, 'a', 0o600), suspects };
    this.logs.set(connectionId, log);
    return log;
  }

  /**
   * Best effort: the journal guards against a crash loop, it must never fail a document. A line it
   * cannot write (a full disk: the sync's own space check then stops the run as DISK_FULL) is lost,
   * so at worst a crash on that document is retried once more.
   */
  private append(connectionId: string, line: Line): void {
    try {
      writeSync(this.log(connectionId).fd, `${JSON.stringify(line)}\n`);
    } catch {
      // See above.
    }
  }
}
