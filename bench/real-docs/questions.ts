/**
 * Our own questions for the real-documents collection (bench/real-docs/sources.ts), written the
 * way users type them: bare identifiers and error codes, exact feature names, two-character
 * Chinese words, Chinese question phrasing (怎么/什么/如何/是否/是什么原因/有什么作用), English
 * what/how/does questions, and paraphrases that share few words with the page (reported apart:
 * they are for a semantic model, and the lexical path is not tuned to them).
 *
 * `gold`: every page that answers the question (document id = "<source>/<path>"). `answers`: the
 * strings the citation check looks for in the cited paragraph; any one counts (a Chinese and an
 * English page may both answer). Every third question is in the train split (for tuning weights);
 * the rest is the test split the eval reports.
 *
 * FROZEN: the test split (43 questions) is frozen as of the BM25F baseline
 * (bench-results/eval-baseline.json): no test question is added, changed or moved after a ranking
 * change was measured on it. These questions were written by people who had seen the ranking
 * rules; the sets in questions/ were written blind and committed before any search ran on them.
 */
export type RealDocsQuestionType =
  'identifier' | 'exact-term' | 'question' | 'short-word' | 'english' | 'paraphrase';

export interface RealDocsQuestion {
  id: string;
  text: string;
  type: RealDocsQuestionType;
  split: 'train' | 'test';
  gold: string[];
  answers: string[];
}

const CN = 'docs-cn/';
const KV = 'tikv/content/docs/7.1/';
const TIKV_CONFIG = [`${CN}tikv-configuration-file.md`, `${KV}deploy/configure/tikv-configuration-file.md`];

type Draft = [RealDocsQuestionType, string, string[], string[]];

const DRAFTS: Draft[] = [
  // Identifiers: configuration names, variables, environment variables, versions, error codes.
  ['identifier', 'tidb_mem_quota_query', [`${CN}system-variables.md`], ['1073741824']],
  [
    'identifier',
    'raftstore.store-pool-size',
    TIKV_CONFIG,
    ['默认值：2', 'The allowable number of threads that process Raft'],
  ],
  ['identifier', 'max-connections', [`${CN}tiproxy/tiproxy-configuration.md`], ['`0` 表示没有限制']],
  [
    'identifier',
    'HTTP_PROXY',
    [`${CN}releases/release-4.0.12.md`, `${CN}dm/dm-faq.md`],
    ['HTTPS_PROXY', 'no_proxy'],
  ],
  ['identifier', 'v7.4.0 发版日期', [`${CN}releases/release-7.4.0.md`], ['2023 年 10 月 12 日']],
  ['identifier', '错误码 8027', [`${CN}error-codes.md`], ['表结构版本过期']],
  [
    'identifier',
    'tidb_gc_life_time',
    [`${CN}system-variables.md`, `${CN}garbage-collection-configuration.md`],
    ['10m0s'],
  ],
  [
    'identifier',
    'grpc-concurrency',
    TIKV_CONFIG,
    ['gRPC 工作线程的数量', 'The number of gRPC worker threads'],
  ],
  ['identifier', 'region-split-size 默认值', TIKV_CONFIG, ['256MiB', '"96MB"']],
  [
    'identifier',
    'max-replicas',
    [
      `${CN}pd-configuration-file.md`,
      `${KV}deploy/configure/pd-configuration-file.md`,
      `${CN}faq/manage-cluster-faq.md`,
    ],
    ['所有副本数量', 'The number of replicas', 'config set max-replicas'],
  ],
  [
    'identifier',
    'tidb_slow_log_threshold',
    [`${CN}system-variables.md`, `${CN}identify-slow-queries.md`],
    ['300'],
  ],
  [
    'identifier',
    'SHARD_ROW_ID_BITS',
    [`${CN}shard-row-id-bits.md`, `${CN}troubleshoot-hot-spot-issues.md`],
    ['SHARD_ROW_ID_BITS'],
  ],
  ['identifier', 'reserve-space', TIKV_CONFIG, ['space_placeholder_file']],
  [
    'identifier',
    'ErrBackupGCSafepointExceeded',
    [`${CN}faq/backup-and-restore-faq.md`, `${CN}br/br-pitr-manual.md`],
    ['ErrBackupGCSafepointExceeded'],
  ],
  [
    'identifier',
    'tidb_enable_clustered_index',
    [`${CN}system-variables.md`, `${CN}clustered-indexes.md`],
    ['INT_ONLY'],
  ],
  [
    'identifier',
    'enable-ttl',
    [...TIKV_CONFIG, `${KV}concepts/explore-tikv-features/ttl.md`],
    ['enable-ttl = true', 'non-ttl instance', 'Time to live'],
  ],

  // Chinese questions: the content words must outrank 怎么/什么/如何/是否/是什么原因/有什么作用.
  ['question', '错误码 8027 是什么原因', [`${CN}error-codes.md`], ['表结构版本过期']],
  [
    'question',
    'tidb_enable_clustered_index 有什么作用',
    [`${CN}system-variables.md`, `${CN}clustered-indexes.md`],
    ['聚簇索引'],
  ],
  [
    'question',
    '怎么找出执行很慢的 SQL 语句',
    [`${CN}identify-slow-queries.md`, `${CN}analyze-slow-queries.md`],
    ['慢查询'],
  ],
  // TiKV's English FAQ answers it too (gold completed after run 3, docs/decisions/retrieval-on-real-documents.md).
  [
    'question',
    'TiKV channel full 是什么原因',
    [`${CN}faq/manage-cluster-faq.md`, `${KV}reference/faq.md`],
    ['Raftstore 线程太忙', 'The Raftstore thread is too slow'],
  ],
  [
    'question',
    'PD 能容忍的时间同步误差是多少',
    [`${CN}faq/manage-cluster-faq.md`],
    ['PD 可容忍任意时长的误差'],
  ],
  ['question', '如何查看某张表的创建时间', [`${CN}faq/manage-cluster-faq.md`], ['create_time']],
  ['question', 'TiDB 的 lease 参数应该如何设置', [`${CN}faq/manage-cluster-faq.md`], ['--lease=60']],
  [
    'question',
    'region 副本数量怎么调整',
    [`${CN}faq/manage-cluster-faq.md`, `${CN}pd-configuration-file.md`],
    ['config set max-replicas', '所有副本数量'],
  ],
  ['question', 'TiDB 是否支持外键', [`${CN}foreign-key.md`], ['v6.6.0']],
  ['question', '如何用 TiUP 扩容 TiKV 节点', [`${CN}scale-tidb-using-tiup.md`], ['scale-out']],
  [
    'question',
    'TiKV 频繁切换 Region leader 是什么原因',
    [`${CN}faq/manage-cluster-faq.md`],
    ['Report failures'],
  ],
  ['question', '什么是 Stale Read', [`${CN}stale-read.md`], ['读取历史数据版本']],
  [
    'question',
    '如何导出 TiDB 数据',
    [`${CN}dumpling-overview.md`, `${CN}faq/migration-tidb-faq.md`],
    ['Dumpling'],
  ],
  [
    'question',
    'tidb_gc_life_time 有什么作用',
    [`${CN}system-variables.md`, `${CN}garbage-collection-configuration.md`],
    ['保留数据的时限'],
  ],
  [
    'question',
    '慢查询日志的默认阈值是多少',
    [`${CN}identify-slow-queries.md`, `${CN}system-variables.md`],
    ['300'],
  ],
  [
    'question',
    'TiDB 7.4.0 是什么时候发布的',
    [`${CN}releases/release-7.4.0.md`, `${CN}releases/release-timeline.md`],
    ['2023 年 10 月 12 日', '2023-10-12'],
  ],

  // Two-character Chinese words.
  ['short-word', '热点', [`${CN}troubleshoot-hot-spot-issues.md`], ['热点']],
  ['short-word', '外键', [`${CN}foreign-key.md`], ['外键']],
  ['short-word', '视图', [`${CN}views.md`], ['视图']],
  ['short-word', '分区', [`${CN}partitioned-table.md`], ['分区']],
  [
    'short-word',
    '死锁',
    [`${CN}information-schema/information-schema-deadlocks.md`, `${CN}troubleshoot-lock-conflicts.md`],
    ['死锁'],
  ],
  ['short-word', '序列', [`${CN}sql-statements/sql-statement-create-sequence.md`], ['序列']],
  ['short-word', '加密', [`${CN}encryption-at-rest.md`], ['加密']],

  // English questions over TiKV's English documentation.
  [
    'english',
    'What is the default value of store-pool-size?',
    TIKV_CONFIG,
    ['Default value: `2`', '默认值：2'],
  ],
  [
    'english',
    'How do I enable TTL in TiKV?',
    [`${KV}concepts/explore-tikv-features/ttl.md`, ...TIKV_CONFIG],
    ['enable-ttl = true'],
  ],
  [
    'english',
    'What does compare-and-swap do in RawKV?',
    [`${KV}concepts/explore-tikv-features/cas.md`, `${KV}develop/rawkv/cas.md`],
    ['atomic'],
  ],
  ['english', 'When should I use Titan?', [`${KV}deploy/configure/titan.md`], ['larger than 1KB']],
  [
    'english',
    'How does PD decide to merge two regions?',
    [`${KV}deploy/configure/region-merge.md`],
    ['max-merge-region-size'],
  ],
  ['english', 'How to scale out a TiKV cluster with TiUP', [`${KV}deploy/operate/scale.md`], ['scale-out']],
  [
    'english',
    'Which Linux versions does TiKV support?',
    [`${KV}deploy/install/prerequisites.md`],
    ['7.3 or later'],
  ],
  ['english', 'What does the Checksum API return?', [`${KV}develop/rawkv/checksum.md`], ['Crc64Xor']],
  [
    'english',
    'What is the default block cache capacity?',
    [`${KV}deploy/configure/tikv-configuration-file.md`],
    ['45% of the size of total system memory'],
  ],
  [
    'english',
    'How many gRPC worker threads does TiKV use by default?',
    TIKV_CONFIG,
    ['Default value: `5`', 'grpc-raft-conn-num * 3 + 2'],
  ],
  [
    'english',
    'Does TiKV support distributed transactions?',
    [`${KV}concepts/explore-tikv-features/distributed-transaction.md`, `${KV}reference/faq.md`],
    ['pessimistic or optimistic', 'The transaction model in TiKV'],
  ],
  [
    'english',
    'what is max-merge-region-size',
    [
      `${KV}deploy/configure/pd-configuration-file.md`,
      `${KV}deploy/configure/region-merge.md`,
      `${CN}pd-configuration-file.md`,
    ],
    ['Region Merge'],
  ],

  // Exact feature names and statements.
  ['exact-term', 'Placement Rules in SQL', [`${CN}placement-rules-in-sql.md`], ['放置位置']],
  ['exact-term', 'AUTO_RANDOM 列属性', [`${CN}auto-random.md`], ['AUTO_RANDOM']],
  [
    'exact-term',
    'TiDB Lightning 物理导入模式',
    [`${CN}tidb-lightning/tidb-lightning-physical-import-mode.md`],
    ['物理导入模式'],
  ],
  [
    'exact-term',
    'FLASHBACK TABLE',
    [`${CN}sql-statements/sql-statement-flashback-table.md`],
    ['FLASHBACK TABLE'],
  ],
  ['exact-term', '悲观事务模式', [`${CN}pessimistic-transaction.md`], ['悲观事务']],
  [
    'exact-term',
    'ADMIN SHOW SLOW',
    [`${CN}identify-slow-queries.md`, `${CN}sql-statements/sql-statement-admin.md`],
    ['ADMIN SHOW SLOW'],
  ],

  // Paraphrases: few words in common with the page (for a semantic model; reported apart).
  [
    'paraphrase',
    '怎么把 MySQL 的数据搬到 TiDB',
    [
      `${CN}migrate-small-mysql-to-tidb.md`,
      `${CN}migrate-large-mysql-to-tidb.md`,
      `${CN}migration-overview.md`,
    ],
    ['迁移'],
  ],
  ['paraphrase', '集群要加一台机器怎么弄', [`${CN}scale-tidb-using-tiup.md`], ['扩容']],
  [
    'paraphrase',
    '删错表了还能找回来吗',
    [
      `${CN}sql-statements/sql-statement-flashback-table.md`,
      `${CN}sql-statements/sql-statement-recover-table.md`,
    ],
    ['FLASHBACK TABLE', 'RECOVER TABLE'],
  ],
  ['paraphrase', '让数据只存放在某个机房', [`${CN}placement-rules-in-sql.md`], ['机房']],
  [
    'paraphrase',
    'How do I make keys expire automatically in TiKV?',
    [`${KV}concepts/explore-tikv-features/ttl.md`, ...TIKV_CONFIG],
    ['TTL'],
  ],
  ['paraphrase', 'add more machines to a TiKV cluster', [`${KV}deploy/operate/scale.md`], ['scale-out']],
  ['paraphrase', '执行慢的语句记录在哪个文件', [`${CN}identify-slow-queries.md`], ['tidb-slow.log']],
];

export const REAL_DOCS_QUESTIONS: readonly RealDocsQuestion[] = DRAFTS.map(
  ([type, text, gold, answers], i) => ({
    id: `rd${String(i + 1).padStart(3, '0')}`,
    text,
    type,
    split: i % 3 === 2 ? 'train' : 'test',
    gold,
    answers,
  }),
);
