/**
 * Retrieval rules on documents shaped like real documentation (front matter, Hugo shortcodes,
 * HTML, reference pages of many small sections, FAQs, a TOC), through the real sync (clean →
 * chunk → analyse → store) and the app's HybridSearch as shipped by default (keyword search, no
 * semantic model).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/database';
import { documentsWithTag, listTags } from '../index/document-tags';
import { PgDocumentStore } from '../index/pg-document-store';
import { SyncEngine } from '../sync/sync-engine';
import { SyncLock } from '../sync/sync-lock';
import { insertConnection, MemoryConnector } from '../../testing/index-fixtures';
import { buildExtractiveAnswer } from '../chat/extractive-answer';
import { retrieve } from '../chat/retrieval';
import { HybridSearch } from './hybrid-search';
import { sectionUrl } from './search-hits';

const variable = (name: string, text: string) =>
  `### \`${name}\` <span class="version-mark">从 v6.1.0 版本开始引入</span>\n\n- 作用域：SESSION | GLOBAL\n- 默认值：\`${text}\`\n- 这个变量用于设置${name.replace(/_/g, ' ')}相关的行为，单位为字节，详见相关文档。\n`;

const DOCS: Record<string, string> = {
  'system-variables.md': [
    '---\ntitle: 系统变量\nsummary: TiDB 系统变量的作用与默认值。\ntags: [reference, 变量]\naliases: ["/docs-cn/dev/system-variables/"]\n---',
    '# 系统变量',
    '{{< copyable "sql" >}}\n\n```sql\nSET GLOBAL tidb_gc_enable = ON;\n```',
    variable('tidb_mem_quota_query', '1073741824'),
    variable('tidb_mem_oom_action', 'CANCEL'),
    variable('tidb_gc_life_time', '10m0s'),
    variable('tidb_query_log_max_len', '4096'),
  ].join('\n\n'),
  'configure-memory-usage.md':
    '# 调整内存\n\n单条 SQL 的内存 quota 可以调整：tidb mem 相关的 query 变量很多，quota 是其中之一，query 的内存由 tidb 统计。' +
    '内存使用超过阈值时由 `tidb_mem_oom_action` 决定行为。变量不存在时报错，词法分析失败。\n',
  'faq.md': [
    '# 集群管理 FAQ',
    '### TiKV 频繁切换 Region leader 是什么原因？\n\n- 网络问题导致节点间通信卡了，查看 Report failures 监控。',
    '### PD 启动报错是什么原因？\n\n- 配置文件中的 cluster ID 不一致。',
    '### TiKV channel full 是什么原因？\n\n- Raftstore 线程太忙，或者因 I/O 而卡住。\n- TiKV 过忙，请求处理不过来。',
    '### 为什么 TiDB 连接失败？是什么原因？\n\n- 端口被占用。',
  ].join('\n\n'),
  'alerts.md':
    '# Alerts\n\nWhen the channel of a TiKV store is full for long, the alert fires. TiKV reports full disks too. ' +
    'A channel may be full when TiKV is busy.\n',
  'TOC.md':
    '# 目录\n\n' +
    ['系统变量', '调整内存', '集群管理 FAQ', 'TiKV channel full', '内存 quota', '7.4.0 发版说明']
      .map((t, i) => `- [${t}](/page-${i}.md)`)
      .join('\n'),
  'release-7.4.0.md':
    '---\ntitle: TiDB 7.4.0 Release Notes\n---\n\n发版日期：2023 年 10 月 12 日\n\nTiDB 版本：7.4.0\n\n<div>\n\n- 新功能 A\n\n</div></SimpleTab>\n',
  // Terms Intl.Segmenter splits into single characters the function-word list holds alone (分, 区, 时).
  'partitioned-table.md':
    '---\ntitle: 分区表\n---\n\n# 分区表\n\n本文介绍 TiDB 的分区表。\n\n## 分区类型\n\n' +
    '本节介绍 Range 分区、List 分区和 Hash 分区。\n\n## 分区裁剪\n\n查询只访问需要的分区。\n',
  'temporary-table.md':
    '---\ntitle: 临时表\n---\n\n# 临时表\n\n临时表是一种特殊的表：表中的数据只在会话内可见，' +
    '会话结束时表被删除。本地临时表与全局临时表的表结构不同，表的数据存放在内存中。\n',
  'time-zone.md':
    '---\ntitle: 时区支持\n---\n\n# 时区支持\n\nTiDB 使用的时区由 time_zone 变量决定，' +
    '默认使用系统时区。修改时区后，TIMESTAMP 类型的值按新时区显示。\n',
  'time-functions.md':
    '---\ntitle: 日期和时间函数\n---\n\n# 日期和时间函数\n\n时间函数返回当前时间，' +
    '区间运算按时间单位计算，结果的时间类型与参数一致。\n',
};

let db: Db;
let search: HybridSearch;

beforeAll(async () => {
  db = await openDatabase();
  await insertConnection(db, 'docs');
  const connector = new MemoryConnector();
  // Platform titles as a connector lists them (the FAQ's equals its H1, as on most platforms).
  for (const [path, markdown] of Object.entries(DOCS))
    connector.put(path, markdown, path === 'faq.md' ? { title: '集群管理 FAQ' } : {});
  const engine = new SyncEngine({ db, store: new PgDocumentStore(db), lock: new SyncLock(db) });
  const run = await engine.run({ connectionId: 'docs', connector });
  expect(run.status).toBe('succeeded');
  search = new HybridSearch({ db, queryEmbedder: () => null });
}, 240_000);

afterAll(async () => {
  await db.close();
});

async function top(query: string) {
  return (await search.search({ query, k: 10 })).hits;
}

describe('search on real-shaped documents', () => {
  // 分区表 is 分|区|表 to the segmenter: without the pairs of a run split into single characters
  // (query-terms.ts) its only content word is 表, and 临时表 (more 表) leads.
  it.each([
    ['分区', 'partitioned-table.md'],
    ['时区', 'time-zone.md'],
    ['分区表', 'partitioned-table.md'],
  ])(
    'finds the page about %s first, though the segmenter splits it into listed characters',
    async (query, page) => {
      expect((await top(query))[0]?.externalId).toBe(page);
    },
  );

  it('ranks the section that defines an identifier first, above pages sharing its pieces', async () => {
    const [first] = await top('tidb_mem_quota_query');
    expect(first?.externalId).toBe('system-variables.md');
    expect(first?.text).toContain('`tidb_mem_quota_query`');
  });

  it('lets content words, not 是什么原因, decide: the FAQ entry that asks the question comes first', async () => {
    const hits = await top('TiKV channel full 是什么原因');
    expect(hits[0]?.externalId).toBe('faq.md');
    expect(hits[0]?.text).toContain('Raftstore 线程太忙');
  });

  it('finds nothing for a query of function words only, or of words no document holds', async () => {
    for (const query of ['的', '是什么', '怎么 如何', 'what is the', 'how does it', 'xyzzy', 'xyzzy plugh'])
      expect({ query, hits: (await top(query)).length }).toEqual({ query, hits: 0 });
  });

  it('never answers "No results" while one of the query words occurs: the pages holding it are found', async () => {
    // xyzzy occurs nowhere; "不存在" and "词" do (configure-memory-usage.md).
    const hits = await top('xyzzy 不存在的词');
    expect(hits.map((hit) => hit.externalId)).toContain('configure-memory-usage.md');
  });

  it('matches a version written with or without "v"', async () => {
    const hits = await top('v7.4.0 发版日期');
    expect(hits[0]?.externalId).toBe('release-7.4.0.md');
  });

  it('indexes and shows cleaned text: no shortcodes, no HTML, front matter as metadata, title as H1', async () => {
    const rows = (
      await db.query<{ content: string; title: string; metadata: Record<string, unknown> }>(
        `SELECT content, title, metadata FROM documents ORDER BY external_id`,
      )
    ).rows;
    for (const row of rows) {
      expect(row.content).not.toMatch(/\{\{[<%]|<\/?(?:span|div|SimpleTab)\b|^---$/m);
    }
    const release = rows.find((r) => r.title === 'TiDB 7.4.0 Release Notes')!;
    expect(release.content.startsWith('# TiDB 7.4.0 Release Notes\n')).toBe(true);
    const variables = rows.find((r) => r.title === '系统变量')!;
    expect(variables.metadata).toEqual({
      title: '系统变量',
      summary: 'TiDB 系统变量的作用与默认值。',
      tags: ['reference', '变量'],
      aliases: ['/docs-cn/dev/system-variables/'],
    });
    expect(variables.content).toContain('### `tidb_mem_quota_query` 从 v6.1.0 版本开始引入');
    expect(variables.content).toContain('```sql\nSET GLOBAL tidb_gc_enable = ON;\n```');
    // Tags are there for a tag filter.
    expect(await listTags(db)).toEqual([
      { tag: 'reference', documents: 1 },
      { tag: '变量', documents: 1 },
    ]);
    expect(await documentsWithTag(db, '变量')).toHaveLength(1);
    // Metadata is searchable, though it is not body text.
    expect((await top('reference'))[0]?.externalId).toBe('system-variables.md');
  });

  it("points a folder hit's link at its section, GitHub-style", () => {
    expect(
      sectionUrl({
        url: '/docs/system-variables.md',
        platform: 'folder',
        heading_path: '系统变量 > `tidb_mem_quota_query` 从 v6.1.0 版本开始引入',
        content: '设置单条 SQL 语句的内存使用限制。',
      }),
    ).toBe('/docs/system-variables.md#tidb_mem_quota_query-从-v610-版本开始引入');
    // A chunk of several sections stores the path they share: its text's own heading is the section.
    const merged = {
      url: '/docs/system-variables.md',
      platform: 'folder' as const,
      heading_path: '系统变量 > 变量参考',
      content:
        '### `tidb_mem_quota_query`\n\n设置单条 SQL 语句的内存使用限制。\n\n### `tidb_mem_oom_action`\n\n超过内存限制时的行为。',
    };
    expect(sectionUrl(merged)).toBe('/docs/system-variables.md#tidb_mem_quota_query');
    expect(sectionUrl(merged, merged.content.indexOf('超过'))).toBe(
      '/docs/system-variables.md#tidb_mem_oom_action',
    );
    expect(
      sectionUrl({
        url: 'https://x.test/doc',
        platform: 'feishu',
        heading_path: 'A > B',
        content: '## C\n\nx',
      }),
    ).toBe('https://x.test/doc');
    expect(sectionUrl({ url: '/docs/a.md', platform: 'folder', heading_path: '', content: 'x' })).toBe(
      '/docs/a.md',
    );
  });

  it('quotes the paragraph that answers, under the source named once', async () => {
    const question = 'TiKV channel full 是什么原因';
    const hits = await retrieve(search, [question], 10, new AbortController().signal);
    const answer = buildExtractiveAnswer(question, hits, 'no-model');
    expect(answer.sources[0]?.excerpt).toContain('Raftstore 线程太忙');
    expect(answer.sources[0]?.excerpt).toContain('- TiKV 过忙');
    expect(answer.text).toContain('— 集群管理 FAQ › TiKV channel full 是什么原因？ [1]');
    expect(answer.text).not.toContain('集群管理 FAQ › 集群管理 FAQ');
  });
});
