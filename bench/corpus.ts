/**
 * A deterministic knowledge-base corpus for the speed benchmark: Markdown notes with headings,
 * lists, the odd code block and table, in Chinese, English or both, with paragraph lengths like
 * real team wikis (a sentence or two up to ~600 characters). Document i depends only on
 * (seed, i, version), so the 1k-chunk corpus is a prefix of the 10k one and "1% changed" means
 * regenerating those documents at version 2.
 *
 * Each document leans on one topic, so queries drawn from a topic's words have real answers
 * and the vector and keyword channels have something to rank.
 */
import { pick, seededRandom, type Random } from '../src-main/testing/seeded-random';

export interface GeneratedDocument {
  externalId: string;
  title: string;
  knowledgeBase: string;
  markdown: string;
  language: 'zh' | 'en' | 'mixed';
}

interface Topic {
  en: string;
  zh: string;
  enWords: readonly string[];
  zhWords: readonly string[];
}

const TOPICS: readonly Topic[] = [
  {
    en: 'Travel expenses',
    zh: '差旅报销',
    enWords: ['reimbursement', 'receipt', 'invoice', 'hotel', 'flight', 'allowance', 'approval', 'expense'],
    zhWords: ['报销', '发票', '差旅', '酒店', '机票', '补贴', '审批', '财务'],
  },
  {
    en: 'Onboarding',
    zh: '新人入职',
    enWords: ['onboarding', 'laptop', 'account', 'mentor', 'badge', 'orientation', 'handbook', 'probation'],
    zhWords: ['入职', '电脑', '账号', '导师', '工牌', '培训', '手册', '试用期'],
  },
  {
    en: 'Release process',
    zh: '发布流程',
    enWords: ['release', 'deploy', 'rollback', 'canary', 'changelog', 'staging', 'pipeline', 'hotfix'],
    zhWords: ['发布', '部署', '回滚', '灰度', '变更', '预发', '流水线', '热修复'],
  },
  {
    en: 'Incident response',
    zh: '故障处理',
    enWords: ['incident', 'outage', 'pager', 'postmortem', 'severity', 'escalation', 'alert', 'runbook'],
    zhWords: ['故障', '宕机', '值班', '复盘', '等级', '升级', '告警', '预案'],
  },
  {
    en: 'Database operations',
    zh: '数据库运维',
    enWords: ['database', 'backup', 'replica', 'migration', 'index', 'vacuum', 'snapshot', 'failover'],
    zhWords: ['数据库', '备份', '副本', '迁移', '索引', '清理', '快照', '切换'],
  },
  {
    en: 'Product roadmap',
    zh: '产品规划',
    enWords: ['roadmap', 'milestone', 'feature', 'priority', 'customer', 'feedback', 'quarter', 'launch'],
    zhWords: ['规划', '里程碑', '功能', '优先级', '客户', '反馈', '季度', '上线'],
  },
  {
    en: 'Security policy',
    zh: '安全规范',
    enWords: ['password', 'phishing', 'encryption', 'access', 'audit', 'vulnerability', 'token', 'firewall'],
    zhWords: ['密码', '钓鱼', '加密', '权限', '审计', '漏洞', '令牌', '防火墙'],
  },
  {
    en: 'Meeting notes',
    zh: '会议纪要',
    enWords: ['meeting', 'agenda', 'decision', 'action', 'owner', 'deadline', 'attendees', 'followup'],
    zhWords: ['会议', '议程', '决定', '待办', '负责人', '截止', '参会', '跟进'],
  },
  {
    en: 'Recruiting',
    zh: '招聘面试',
    enWords: ['interview', 'candidate', 'offer', 'referral', 'resume', 'salary', 'headcount', 'feedback'],
    zhWords: ['面试', '候选人', '录用', '内推', '简历', '薪资', '编制', '评价'],
  },
  {
    en: 'Customer support',
    zh: '客户支持',
    enWords: [
      'ticket',
      'refund',
      'complaint',
      'escalation',
      'satisfaction',
      'response',
      'warranty',
      'chatbot',
    ],
    zhWords: ['工单', '退款', '投诉', '升级', '满意度', '响应', '保修', '客服'],
  },
  {
    en: 'Office facilities',
    zh: '行政办公',
    enWords: ['office', 'meeting room', 'printer', 'parking', 'cafeteria', 'wifi', 'visitor', 'delivery'],
    zhWords: ['办公室', '会议室', '打印机', '停车', '食堂', '网络', '访客', '快递'],
  },
  {
    en: 'Model training',
    zh: '模型训练',
    enWords: [
      'training',
      'dataset',
      'checkpoint',
      'gradient',
      'evaluation',
      'embedding',
      'inference',
      'latency',
    ],
    zhWords: ['训练', '数据集', '检查点', '梯度', '评测', '向量', '推理', '延迟'],
  },
];

const EN_COMMON = [
  'the',
  'team',
  'should',
  'before',
  'after',
  'each',
  'week',
  'please',
  'check',
  'update',
  'document',
  'process',
  'request',
  'system',
  'manager',
  'review',
  'note',
  'when',
  'with',
  'every',
  'new',
  'first',
  'then',
  'also',
  'must',
  'can',
  'will',
  'our',
  'this',
  'that',
  'for',
  'and',
  'to',
  'of',
  'in',
  'on',
  'is',
  'are',
  'be',
  'it',
  'we',
  'you',
  'by',
  'from',
  'time',
  'project',
  'owner',
  'status',
  'link',
  'form',
  'days',
  'rules',
  'policy',
];
const ZH_COMMON = [
  '我们',
  '需要',
  '请',
  '在',
  '之前',
  '之后',
  '每周',
  '检查',
  '更新',
  '文档',
  '流程',
  '申请',
  '系统',
  '经理',
  '确认',
  '注意',
  '如果',
  '可以',
  '必须',
  '已经',
  '团队',
  '项目',
  '负责',
  '状态',
  '链接',
  '表格',
  '工作日',
  '规则',
  '制度',
  '同事',
  '提交',
  '通知',
  '以及',
  '相关',
  '问题',
  '时间',
  '部门',
];

function englishSentence(random: Random, topic: Topic): string {
  const length = 6 + Math.floor(random() * 18);
  const words: string[] = [];
  for (let i = 0; i < length; i++)
    words.push(random() < 0.3 ? pick(random, topic.enWords) : pick(random, EN_COMMON));
  const first = words[0]!;
  words[0] = first[0]!.toUpperCase() + first.slice(1);
  return `${words.join(' ')}${pick(random, ['.', '.', '.', '?', '!'])}`;
}

function chineseSentence(random: Random, topic: Topic): string {
  const length = 5 + Math.floor(random() * 14);
  let text = '';
  for (let i = 0; i < length; i++) {
    text += random() < 0.3 ? pick(random, topic.zhWords) : pick(random, ZH_COMMON);
    if (i > 2 && i < length - 2 && random() < 0.12) text += '，';
  }
  return text + pick(random, ['。', '。', '。', '；', '？', '！']);
}

/** Paragraph lengths: mostly 1–4 sentences, a long tail up to ~600 characters. */
function paragraph(random: Random, topic: Topic, language: 'zh' | 'en'): string {
  const sentences = 1 + Math.floor(random() * random() * 8);
  const parts = Array.from({ length: sentences }, () =>
    language === 'zh' ? chineseSentence(random, topic) : englishSentence(random, topic),
  );
  return parts.join(language === 'zh' ? '' : ' ');
}

function block(random: Random, topic: Topic, language: 'zh' | 'en'): string {
  const roll = random();
  if (roll < 0.12)
    return Array.from(
      { length: 2 + Math.floor(random() * 5) },
      () => `- ${language === 'zh' ? chineseSentence(random, topic) : englishSentence(random, topic)}`,
    ).join('\n');
  if (roll < 0.15) return `\`\`\`bash\n# ${pick(random, topic.enWords)}\ncairn sync --json\n\`\`\``;
  if (roll < 0.18) {
    const rows = Array.from(
      { length: 2 + Math.floor(random() * 4) },
      () =>
        `| ${pick(random, language === 'zh' ? topic.zhWords : topic.enWords)} | ${Math.floor(random() * 1000)} |`,
    );
    return ['| item | value |', '|---|---|', ...rows].join('\n');
  }
  return paragraph(random, topic, language);
}

/** Document sizes: many short notes, some guides, a few long handbooks (a long-tailed mix). */
function sectionCount(random: Random): number {
  const roll = random();
  if (roll < 0.55) return 1 + Math.floor(random() * 2);
  if (roll < 0.9) return 3 + Math.floor(random() * 4);
  return 8 + Math.floor(random() * 12);
}

function documentSeed(seed: number, index: number, version: number): number {
  // Distinct, well-mixed seeds per (index, version): documents never share a random stream.
  return (
    (Math.imul(seed ^ 0x9e3779b9, 2654435761) ^
      Math.imul(index + 1, 0x85ebca6b) ^
      Math.imul(version, 0xc2b2ae35)) >>>
    0
  );
}

/** Document `index` of the corpus; `version` > 1 gives the same document after an edit. */
export function generateDocument(
  index: number,
  options: { seed?: number; version?: number } = {},
): GeneratedDocument {
  const seed = options.seed ?? 1;
  const version = options.version ?? 1;
  // The topic and language stay fixed across versions: an edit changes the text, not the subject.
  const fixed = seededRandom(documentSeed(seed, index, 0));
  const topic = pick(fixed, TOPICS);
  const languageRoll = fixed();
  const language = languageRoll < 0.5 ? 'zh' : languageRoll < 0.9 ? 'en' : 'mixed';
  const random = seededRandom(documentSeed(seed, index, version));
  const main = language === 'en' ? 'en' : 'zh';
  const title =
    main === 'zh'
      ? `${topic.zh}：${pick(random, topic.zhWords)}${pick(random, ['说明', '指南', '记录', 'FAQ', '清单'])} ${index}`
      : `${topic.en}: ${pick(random, topic.enWords)} ${pick(random, ['guide', 'notes', 'FAQ', 'checklist', 'how-to'])} ${index}`;
  const parts = [`# ${title}`];
  const sections = sectionCount(random);
  for (let s = 0; s < sections; s++) {
    const sectionLanguage = language === 'mixed' ? (s % 2 === 0 ? 'zh' : 'en') : main;
    const heading =
      sectionLanguage === 'zh'
        ? `${pick(random, topic.zhWords)}${pick(random, ['要求', '步骤', '说明', '注意事项'])}`
        : `${pick(random, ['How to', 'About', 'Rules for', 'Steps for'])} ${pick(random, topic.enWords)}`;
    parts.push(`## ${heading}`);
    const blocks = 1 + Math.floor(random() * 4);
    for (let b = 0; b < blocks; b++) {
      if (b > 0 && random() < 0.15)
        parts.push(
          `### ${sectionLanguage === 'zh' ? pick(random, topic.zhWords) : pick(random, topic.enWords)}`,
        );
      parts.push(block(random, topic, sectionLanguage));
    }
  }
  return {
    externalId: `doc-${index}`,
    title,
    knowledgeBase: main === 'zh' ? topic.zh : topic.en,
    markdown: `${parts.join('\n\n')}\n`,
    language,
  };
}

/**
 * `count` search queries in the corpus's vocabulary (keyword-style and question-style, Chinese
 * and English), deterministic for a seed.
 */
export function generateQueries(count: number, seed = 7): string[] {
  const random = seededRandom(seed);
  const queries: string[] = [];
  for (let i = 0; i < count; i++) {
    const topic = pick(random, TOPICS);
    const roll = random();
    if (roll < 0.3) queries.push(`${pick(random, topic.zhWords)}${pick(random, topic.zhWords)}`);
    else if (roll < 0.5)
      queries.push(`怎么${pick(random, ['申请', '提交', '确认'])}${pick(random, topic.zhWords)}？`);
    else if (roll < 0.8) queries.push(`${pick(random, topic.enWords)} ${pick(random, topic.enWords)}`);
    else
      queries.push(
        `how do I ${pick(random, ['request', 'check', 'update'])} the ${pick(random, topic.enWords)} ${pick(random, topic.enWords)}?`,
      );
  }
  return queries;
}
