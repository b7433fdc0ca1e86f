/**
 * The generated term test (issue #24): every title or heading of a corpus made of two to four
 * CJK characters (分区表, 时区, 概述) is a query of its own, and it passes when a document that
 * has that title or heading is among the first three. Generated from the corpus, so nobody picks
 * the terms. One-character headings are left out: a single character is not a term.
 */
import { declaredTitle } from '../bm25f-reference';
import type { CorpusRecord } from '../collection';

export const TERM_TOP = 3;
const TERM = /^\p{Script=Han}{2,4}$/u;

export interface TermCase {
  term: string;
  /** Documents whose title or one of whose headings is the term. */
  documents: string[];
}

export interface TermFailure {
  term: string;
  expected: string[];
  got: string[];
}

export interface TermTestResult {
  corpus: string;
  cases: number;
  /** Share of terms passed, per ranking (hybrid = the app's search; bm25f = the reference). */
  passRate: Record<string, number>;
  failures: Record<string, TermFailure[]>;
}

/** A heading's words without Markdown decoration: emphasis, code, links, a trailing {#anchor}. */
export function headingText(raw: string): string {
  return raw
    .replace(/\{#[^}]*\}\s*$/, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`]/g, '')
    .replace(/\s+#+\s*$/, '')
    .trim();
}

/** The declared title (record or front matter) and the ATX headings outside fenced code blocks. */
export function headingsOf(record: CorpusRecord): string[] {
  const title = declaredTitle(record);
  const headings = title ? [title] : [];
  let fence: string | null = null;
  for (const line of record.text.split('\n')) {
    const marker = /^\s*(```|~~~)/.exec(line)?.[1];
    if (marker) fence = fence === null ? marker : fence === marker ? null : fence;
    else if (fence === null) {
      const heading = /^#{1,6}\s+(.+)$/.exec(line)?.[1];
      if (heading) headings.push(heading);
    }
  }
  return headings.map(headingText);
}

export function termCases(corpus: readonly CorpusRecord[]): TermCase[] {
  const byTerm = new Map<string, Set<string>>();
  for (const record of corpus)
    for (const heading of headingsOf(record))
      if (TERM.test(heading)) byTerm.set(heading, (byTerm.get(heading) ?? new Set()).add(record.id));
  return [...byTerm]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([term, documents]) => ({ term, documents: [...documents].sort() }));
}

/** Runs each case through each ranking (document ids, best first) and keeps the failures. */
export async function runTermTest(
  corpus: string,
  cases: readonly TermCase[],
  rankings: Record<string, (term: string) => Promise<string[]> | string[]>,
): Promise<TermTestResult> {
  const passRate: Record<string, number> = {};
  const failures: Record<string, TermFailure[]> = {};
  for (const [name, rank] of Object.entries(rankings)) {
    failures[name] = [];
    for (const c of cases) {
      const top = (await rank(c.term)).slice(0, TERM_TOP);
      if (!top.some((id) => c.documents.includes(id)))
        failures[name].push({ term: c.term, expected: c.documents.slice(0, 3), got: top });
    }
    passRate[name] = cases.length === 0 ? Number.NaN : 1 - failures[name].length / cases.length;
  }
  return { corpus, cases: cases.length, passRate, failures };
}
