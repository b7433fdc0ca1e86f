/**
 * The fixture corpus behind the DingTalk and IMA fakes: deterministic Chinese and English
 * Markdown documents with headings, code, tables and some long documents, spread over a few
 * knowledge bases and nested folders. `generateCorpus({ documents: N })` gives exactly N documents,
 * so a test can ask for the scale it needs.
 */

export interface CorpusDocument {
  /** Stable key the fakes map to their own platform ids. */
  key: string;
  title: string;
  markdown: string;
  language: 'zh' | 'en';
  /** Index into `Corpus.spaces`. */
  space: number;
  /** Folder path inside the space, [] for the top level. */
  folder: string[];
  /** ISO 8601 time of the last edit. */
  updatedAt: string;
}

export interface Corpus {
  spaces: string[];
  documents: CorpusDocument[];
}

export interface CorpusOptions {
  /** @default 24 */
  documents?: number;
  /** @default 3 */
  spaces?: number;
  /** Every n-th document is long (40 sections, 9k-16k characters). @default 7 */
  longEvery?: number;
}

const SPACE_NAMES = ['产品手册', 'Engineering Wiki', '运营知识库', 'Research Notes', '客户支持'];

const FOLDERS: string[][] = [[], ['设计 Design'], ['设计 Design', '归档 Archive'], ['Runbooks'], []];

interface Topic {
  zh: string;
  en: string;
  code: string;
}

const TOPICS: Topic[] = [
  { zh: '向量检索', en: 'Vector search', code: 'const hits = await index.search(embedding, { topK: 30 });' },
  {
    zh: '部署流程',
    en: 'Deployment pipeline',
    code: 'kubectl rollout status deployment/cairn --timeout=120s',
  },
  {
    zh: '权限模型',
    en: 'Permission model',
    code: "if (!user.roles.includes('editor')) throw new Error('forbidden');",
  },
  { zh: '数据备份', en: 'Database backup', code: 'pg_dump --format=custom --file=backup.dump cairn' },
  {
    zh: '接口限流',
    en: 'API rate limiting',
    code: 'const queue = new PQueue({ interval: 1000, intervalCap: 20 });',
  },
  { zh: '新人入职', en: 'Onboarding checklist', code: 'git clone git@example.com:team/handbook.git' },
  { zh: '故障复盘', en: 'Incident review', code: 'SELECT count(*) FROM incidents WHERE severity >= 2;' },
  {
    zh: '季度规划',
    en: 'Quarterly planning',
    code: 'okr:\n  objective: 提升检索质量\n  key_results: [recall@10 >= 0.9]',
  },
  { zh: '缓存策略', en: 'Caching strategy', code: 'cache.set(key, value, { ttl: 300 }); // 五分钟' },
  { zh: '日志规范', en: 'Logging conventions', code: "logger.info('sync finished', { documents: 300 });" },
  {
    zh: '客户反馈',
    en: 'Customer feedback',
    code: 'curl -s https://example.com/api/feedback | jq .items[0]',
  },
  { zh: '搜索排序', en: 'Search ranking', code: 'score = sum(1 / (60 + rank_i) for rank_i in ranks)' },
];

function zhBody(topic: Topic, n: number, sections: number): string {
  const parts = [
    `# ${topic.zh}（第 ${n} 篇）`,
    '',
    `本文介绍${topic.zh}的背景、做法与注意事项。编号 CN-${n} 用于检索测试。`,
  ];
  for (let s = 1; s <= sections; s++) {
    parts.push(
      '',
      `## 第 ${s} 节：${topic.zh}要点`,
      '',
      `团队在实践${topic.zh}时发现，先明确目标，再逐步验证，效果最好。这一节记录第 ${s} 个要点：保持步骤可回滚，并把结论写进知识库，方便新同事查阅。`,
      '',
      '```ts',
      topic.code,
      '```',
      '',
      '| 项目 | 说明 | 负责人 |',
      '| --- | --- | --- |',
      `| ${topic.zh} | 第 ${s} 步 | 张伟 |`,
      `| 复查 | 每周一次 | 李娜 |`,
    );
  }
  return parts.join('\n') + '\n';
}

function enBody(topic: Topic, n: number, sections: number): string {
  const parts = [
    `# ${topic.en} (part ${n})`,
    '',
    `This page explains ${topic.en.toLowerCase()}: context, practice and pitfalls. Reference EN-${n} exists for search tests.`,
  ];
  for (let s = 1; s <= sections; s++) {
    parts.push(
      '',
      `## Section ${s}: ${topic.en} essentials`,
      '',
      `When the team worked on ${topic.en.toLowerCase()}, small verified steps beat big rewrites. Point ${s}: keep every step reversible and write the outcome down so newcomers can find it.`,
      '',
      '```ts',
      topic.code,
      '```',
      '',
      '| Item | Meaning | Owner |',
      '| --- | --- | --- |',
      `| ${topic.en} | step ${s} | Alice |`,
      `| Review | weekly | Bob |`,
    );
  }
  return parts.join('\n') + '\n';
}

/** Deterministic documents; the same options always give the same corpus. */
export function generateCorpus(options: CorpusOptions = {}): Corpus {
  const count = options.documents ?? 24;
  const spaceCount = Math.max(1, Math.min(SPACE_NAMES.length, options.spaces ?? 3));
  const longEvery = options.longEvery ?? 7;
  const spaces = SPACE_NAMES.slice(0, spaceCount);
  const documents: CorpusDocument[] = [];
  for (let i = 0; i < count; i++) documents.push(makeDocument(i, spaceCount, longEvery));
  return { spaces, documents };
}

function makeDocument(i: number, spaceCount: number, longEvery: number): CorpusDocument {
  const topic = TOPICS[i % TOPICS.length]!;
  // Alternate languages, shifted every round of topics so each topic appears in both.
  const language = (i + Math.floor(i / TOPICS.length)) % 2 === 0 ? 'zh' : 'en';
  const sections = longEvery > 0 && i % longEvery === longEvery - 1 ? 40 : 3;
  const n = i + 1;
  const markdown = language === 'zh' ? zhBody(topic, n, sections) : enBody(topic, n, sections);
  return {
    key: `doc-${String(n).padStart(4, '0')}`,
    title: language === 'zh' ? `${topic.zh}（第 ${n} 篇）` : `${topic.en} (part ${n})`,
    markdown,
    language,
    space: i % spaceCount,
    folder: FOLDERS[Math.floor(i / spaceCount) % FOLDERS.length]!,
    updatedAt: new Date(Date.UTC(2024, 5, 1) + i * 3_600_000).toISOString(),
  };
}

/** A new revision of a document: an appended section and a later edit time. */
export function reviseDocument(doc: CorpusDocument, markdown?: string): CorpusDocument {
  const later = new Date(Math.max(Date.parse(doc.updatedAt) + 60_000, Date.now())).toISOString();
  const appended =
    doc.language === 'zh'
      ? '\n## 更新\n\n本节为新增内容。\n'
      : '\n## Update\n\nThis section was added later.\n';
  return { ...doc, markdown: markdown ?? doc.markdown + appended, updatedAt: later };
}

/** Up to ~80 characters around the first case-insensitive match, or null when absent. */
export function snippetAround(text: string, query: string, radius = 40): string | null {
  const at = text.toLowerCase().indexOf(query.toLowerCase());
  if (at < 0) return null;
  const start = Math.max(0, at - radius);
  return text
    .slice(start, at + query.length + radius)
    .replace(/\s+/g, ' ')
    .trim();
}
