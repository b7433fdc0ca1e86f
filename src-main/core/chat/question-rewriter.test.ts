/**
 * Measures whether rewriting follow-ups helps retrieval, on a small constructed multi-turn set:
 * 12 follow-ups that lean on the previous turn (pronouns, ellipsis; English and Chinese) and 3
 * topic switches that must not be hurt. Run: npx vitest run src-main/core/chat/question-rewriter
 */
import { describe, expect, it } from 'vitest';
import { InMemorySearchService, type Passage } from '../../testing/in-memory-search-service';
import { heuristicRewrite, looksLikeFollowUp, ModelQuestionRewriter } from './question-rewriter';
import { startFakeOpenAiServer } from '../../testing/fakes/fake-openai-server';
import { OpenAiChatModel } from './openai-chat-model';
import { retrieve } from './retrieval';

const TEXTS: Record<string, string> = {
  'vpn-expiry': 'The VPN certificate expires every 90 days.',
  'vpn-renew': 'Renew the VPN certificate in the IT portal; renewal takes five minutes.',
  'vpn-linux': 'On Linux, install the VPN client with the openconnect package.',
  'exp-deadline': 'Expense reports are due on the last working day of the month.',
  'exp-receipts': 'Receipts above 50 euros must be scanned and attached to the expense report.',
  'exp-approval': 'Expenses above 1000 euros need approval from a director.',
  'lap-order': 'Laptops are ordered through the IT portal two weeks before the start date.',
  'lap-return': 'Return your laptop to the IT desk on your last day; the IT desk wipes it.',
  'lap-warranty': 'Laptops have a three-year warranty; repairs take about five working days.',
  'prn-toner': 'Printer toner is kept in the supply room on floor 3.',
  'prn-jam': 'If the printer jams, open tray 2 and remove the paper; call facilities if it keeps jamming.',
  'park-permit': 'Parking permits are issued by facilities for one year and renewed each January.',
  'park-ev': 'Electric cars can charge at the four chargers on parking level -1 for free.',
  'leave-days': 'Employees get 25 days of annual leave per year.',
  'leave-carry': 'Up to 5 unused leave days carry over to the next year; the rest expire on 31 March.',
  'zh-bx-deadline': '报销单据必须在每月最后一个工作日之前提交给财务部门。',
  'zh-bx-approval': '超过五千元的报销需要总监审批。',
  'zh-nj-days': '员工每年享有二十五天年假。',
  'zh-nj-carry': '未休年假最多可结转五天，其余在三月三十一日过期。',
  'zh-hys-book': '会议室需要提前一天在系统中预订。',
  'zh-hys-cancel': '如果不用会议室，请至少提前两小时取消预订。',
};

const PASSAGES: Passage[] = Object.entries(TEXTS).map(([externalId, text], index) => ({
  connectionId: 'c',
  platform: 'folder',
  documentId: index + 1,
  externalId,
  title: '',
  knowledgeBase: 'Handbook',
  url: null,
  headingPath: '',
  text,
  charStart: 0,
  charEnd: text.length,
}));

/** [first question, its target, follow-up, follow-up's target]. */
const DEPENDENT: [string, string, string, string][] = [
  ['When does the VPN certificate expire?', 'vpn-expiry', 'How do I renew it?', 'vpn-renew'],
  ['How do I set up the VPN on Linux?', 'vpn-linux', 'And when does its certificate expire?', 'vpn-expiry'],
  ['When are expense reports due?', 'exp-deadline', 'What about receipts?', 'exp-receipts'],
  ['Which expenses need approval?', 'exp-approval', 'When are they due?', 'exp-deadline'],
  ['How do I order a laptop?', 'lap-order', 'How long is the warranty?', 'lap-warranty'],
  ['How long do laptop repairs take?', 'lap-warranty', 'Where do I return it when I leave?', 'lap-return'],
  ['Where is printer toner kept?', 'prn-toner', 'What if it jams?', 'prn-jam'],
  ['How do I get a parking permit?', 'park-permit', 'Can I charge an electric car there?', 'park-ev'],
  ['How many days of annual leave do I get?', 'leave-days', 'Do unused ones carry over?', 'leave-carry'],
  ['报销单据什么时候提交？', 'zh-bx-deadline', '需要谁审批？', 'zh-bx-approval'],
  ['每年有几天年假？', 'zh-nj-days', '没休完的可以结转吗？', 'zh-nj-carry'],
  ['会议室怎么预订？', 'zh-hys-book', '那怎么取消呢？', 'zh-hys-cancel'],
];
/** Follow-ups with no word of their own to retrieve by. */
const ELLIPTICAL: [string, string, string, string][] = [
  ['How do I renew the VPN certificate?', 'vpn-renew', 'How often is that needed?', 'vpn-expiry'],
  ['Do expenses above 1000 euros need approval?', 'exp-approval', 'From whom?', 'exp-approval'],
  ['When are expense reports due?', 'exp-deadline', 'Is that every month?', 'exp-deadline'],
  ['Where is printer toner kept?', 'prn-toner', 'Which floor is that on?', 'prn-toner'],
  ['会议室怎么预订？', 'zh-hys-book', '要提前多久？', 'zh-hys-book'],
  ['未休年假可以结转几天？', 'zh-nj-carry', '其余的什么时候过期？', 'zh-nj-carry'],
];
const SWITCHES: [string, string, string, string][] = [
  [
    'When does the VPN certificate expire?',
    'vpn-expiry',
    'Where is printer toner kept in the office?',
    'prn-toner',
  ],
  [
    'How many days of annual leave do I get?',
    'leave-days',
    'Are parking permits renewed each January?',
    'park-permit',
  ],
  ['报销单据什么时候提交？', 'zh-bx-deadline', '会议室需要提前多久预订？', 'zh-hys-book'],
];

/** A strategy gives the queries to search with; several are fused as the chat service does. */
type Strategy = (question: string, previousQuestion: string, previousAnswer: string) => string[];
const STRATEGIES: Record<string, Strategy> = {
  raw: (q) => [q],
  'always + previous question': (q, pq) => [`${pq} ${q}`],
  'always + previous question and answer': (q, pq, pa) => [`${pq} ${pa} ${q}`],
  'heuristic rewrite alone': (q, pq, pa) => [heuristicRewrite(q, [{ question: pq, answer: pa }])],
  'fused: raw + always + previous question': (q, pq) => [q, `${pq} ${q}`],
  'fused: raw + heuristic rewrite': (q, pq, pa) => [q, heuristicRewrite(q, [{ question: pq, answer: pa }])],
  'fused: heuristic rewrite + raw (shipped)': (q, pq, pa) => [
    heuristicRewrite(q, [{ question: pq, answer: pa }]),
    q,
  ],
};

async function reciprocalRanks(
  search: InMemorySearchService,
  cases: typeof DEPENDENT,
  strategy: Strategy,
): Promise<number[]> {
  const ranks: number[] = [];
  for (const [first, firstTarget, followUp, target] of cases) {
    const hits = await retrieve(
      search,
      strategy(followUp, first, TEXTS[firstTarget]!),
      10,
      new AbortController().signal,
    );
    const rank = hits.findIndex((hit) => hit.externalId === target) + 1;
    ranks.push(rank === 0 ? 0 : 1 / rank);
  }
  return ranks;
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const hitAt1 = (values: number[]) => values.filter((v) => v === 1).length;

describe('follow-up rewriting for retrieval', () => {
  it('detects follow-ups and leaves self-contained questions alone', () => {
    const followUps = [...DEPENDENT, ...ELLIPTICAL].map(([, , q]) => q);
    // One miss, reported: "没休完的可以结转吗？" has no pronoun and is not short.
    expect(followUps.filter((q) => !looksLikeFollowUp(q))).toEqual(['没休完的可以结转吗？']);
    expect(SWITCHES.map(([, , q]) => looksLikeFollowUp(q))).toEqual(SWITCHES.map(() => false));
    expect(heuristicRewrite('How do I renew it?', [])).toBe('How do I renew it?');
  });

  it('helps dependent follow-ups without hurting topic switches (measured)', async () => {
    const search = new InMemorySearchService(PASSAGES);
    const rows: string[] = [];
    const results: Record<string, Record<string, number>> = {};
    for (const [name, strategy] of Object.entries(STRATEGIES)) {
      const sets = {
        'keyword follow-ups': DEPENDENT,
        'elliptical follow-ups': ELLIPTICAL,
        'topic switches': SWITCHES,
      };
      const cells: string[] = [];
      results[name] = {};
      for (const [setName, cases] of Object.entries(sets)) {
        const ranks = await reciprocalRanks(search, cases, strategy);
        results[name][setName] = mean(ranks);
        cells.push(`${setName}: MRR ${mean(ranks).toFixed(2)} hit@1 ${hitAt1(ranks)}/${ranks.length}`);
      }
      rows.push(`${name.padEnd(42)} ${cells.join(' | ')}`);
    }
    console.info(
      `Follow-up retrieval (BM25 over the keyword analyzer, ${PASSAGES.length} passages):\n${rows.join('\n')}`,
    );
    const raw = results.raw!;
    const shipped = results['fused: heuristic rewrite + raw (shipped)']!;
    expect(shipped['elliptical follow-ups']).toBeGreaterThan(raw['elliptical follow-ups']!);
    expect(shipped['keyword follow-ups']).toBeGreaterThanOrEqual(raw['keyword follow-ups']! - 0.05);
    expect(shipped['topic switches']).toBe(raw['topic switches']);
  });

  it('asks the model for a standalone question when configured, and falls back to the heuristic on failure', async () => {
    const fake = await startFakeOpenAiServer();
    try {
      fake.behaviour = { kind: 'script', text: '"How do I renew the VPN certificate?"' };
      const rewriter = new ModelQuestionRewriter(
        new OpenAiChatModel({
          provider: 'custom',
          baseUrl: fake.baseUrl,
          model: fake.model,
          apiKey: fake.apiKey,
          contextWindow: 8192,
          maxRetries: 0,
        }),
      );
      const history = [{ question: 'When does the VPN certificate expire?', answer: 'Every 90 days [1].' }];
      expect(await rewriter.rewrite('How do I renew it?', history)).toBe(
        'How do I renew the VPN certificate?',
      );
      expect(fake.requests[0]!.body!.messages![1]!.content).toBe(
        'Conversation:\nUser: When does the VPN certificate expire?\nAssistant: Every 90 days.\n\nLast user question: How do I renew it?',
      );

      fake.behaviour = { kind: 'rate-limit' };
      expect(await rewriter.rewrite('How do I renew it?', history)).toBe(
        'When does the VPN certificate expire? How do I renew it?',
      );
    } finally {
      await fake.close();
    }
  });
});
