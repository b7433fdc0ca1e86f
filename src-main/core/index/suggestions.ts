/**
 * Topics to suggest once something is indexed: headings from the user's own documents (a search to
 * try, questions to ask), so the first screen after a sync leads somewhere real instead of an empty
 * box. Generic headings ("Overview", "目录") and ones too long to be a query are skipped; the newest
 * documents come first and one document gives at most one topic until every document gave one.
 */
import type { DocumentTopic } from '@shared/models';
import type { Db } from '../db/database';

/** Documents read to find topics (the newest), and how much of each: enough for variety, cheap on a large index. */
const SCANNED_DOCUMENTS = 200;
const SCANNED_CHARS = 20_000;
const HAN = /\p{Script=Han}/u;

const GENERIC = new Set(
  [
    'overview',
    'introduction',
    'intro',
    'summary',
    'contents',
    'table of contents',
    'references',
    'appendix',
    'notes',
    'background',
    'conclusion',
    'faq',
    'todo',
    'readme',
    'index',
    'changelog',
    'license',
    'example',
    'examples',
    'usage',
    'see also',
    '概述',
    '简介',
    '介绍',
    '目录',
    '总结',
    '小结',
    '背景',
    '附录',
    '参考',
    '参考资料',
    '备注',
    '说明',
    '前言',
    '示例',
  ].map((word) => word.toLowerCase()),
);

interface Row {
  id: number | string;
  title: string;
  head: string;
}

/** Whether a heading reads as a topic someone would search for. */
export function isTopic(text: string): boolean {
  const clean = text.trim();
  if (!clean || GENERIC.has(clean.toLowerCase())) return false;
  if (!/\p{L}/u.test(clean)) return false;
  if (HAN.test(clean)) {
    const han = [...clean].filter((char) => HAN.test(char)).length;
    return han >= 2 && [...clean].length <= 16;
  }
  const words = clean.split(/\s+/).length;
  return clean.length >= 4 && clean.length <= 40 && words <= 6;
}

/**
 * Strips numbering ("2.1 ", "第三章 ") and edge punctuation a heading often carries ("Rate
 * limiting:", "— Notes —"). Brackets and quotes that open or close a part of the heading stay:
 * "Onboarding checklist (part 6)" must not lose its ")", nor 「重要」通知 its 「.
 */
export function cleanHeading(text: string): string {
  const cleaned = text
    .trim()
    .replace(/^(?:\d+(?:\.\d+)*\.?|第[一二三四五六七八九十百\d]+[章节部分篇])\s*/u, '')
    .replace(/^(?:(?![\p{Ps}\p{Pi}])[\p{P}\p{S}\s])+|(?:(?![\p{Pe}\p{Pf}])[\p{P}\p{S}\s])+$/gu, '')
    .trim();
  return balanced(cleaned) ? cleaned : cleaned.replace(/^[\p{Ps}\p{Pi}]+|[\p{Pe}\p{Pf}]+$/gu, '').trim();
}

/** Whether every bracket or quote the text opens it also closes, and the other way round. */
function balanced(text: string): boolean {
  const opens = [...text].filter((char) => /[\p{Ps}\p{Pi}]/u.test(char)).length;
  const closes = [...text].filter((char) => /[\p{Pe}\p{Pf}]/u.test(char)).length;
  return opens === closes;
}

/** Markdown headings of a text, in order, outside fenced code. */
export function markdownHeadings(markdown: string): string[] {
  const headings: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const match = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (match?.[1]) headings.push(match[1]);
  }
  return headings;
}

export async function documentTopics(db: Db, limit = 6): Promise<DocumentTopic[]> {
  // The head of each document is enough for its main headings, and keeps a large index cheap.
  const rows = await db.query<Row>(
    `SELECT id, title, substring(content, 1, ${SCANNED_CHARS}) AS head
       FROM documents ORDER BY indexed_at DESC, id DESC LIMIT ${SCANNED_DOCUMENTS}`,
  );
  const queues = rows.rows.map((row) => {
    const title = cleanHeading(row.title);
    const headings = markdownHeadings(row.head).map(cleanHeading);
    // Headings other than the title first (more specific), then the title itself.
    const candidates = [...new Set([...headings.filter((text) => text && text !== title), title])];
    return { documentId: Number(row.id), title: row.title, candidates };
  });
  const seen = new Set<string>();
  const topics: DocumentTopic[] = [];
  // Round robin: the newest documents' first topics, then their second ones, and so on.
  while (topics.length < limit && queues.some((q) => q.candidates.length > 0)) {
    for (const queue of queues) {
      if (topics.length >= limit) break;
      while (queue.candidates.length > 0) {
        const text = queue.candidates.shift()!;
        const key = text.toLowerCase();
        if (seen.has(key) || !isTopic(text)) continue;
        seen.add(key);
        topics.push({ text, documentId: queue.documentId, title: queue.title });
        break;
      }
    }
  }
  return topics;
}
