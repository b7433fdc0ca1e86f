import { describe, expect, it } from 'vitest';
import type { ChatExchange } from '../../store/slices/chat-slice';
import { conversationMarkdown, exportFileName } from './export-markdown';

const source = {
  n: 1,
  title: '报销流程',
  platform: 'folder' as const,
  knowledgeBase: 'notes',
  connectionId: 'c1',
  documentId: 1,
  externalId: 'expense.md',
  url: '/notes/expense.md',
  headingPath: '报销流程 > 提交',
  paragraph: '员工提交报销单。\n\n附上发票。',
  charStart: 10,
  charEnd: 30,
};

const exchange: ChatExchange = {
  key: 1,
  question: '怎么报销？',
  messageId: 'm1',
  text: '提交报销单并附上发票 [1]。',
  status: 'done',
  error: null,
  answer: {
    conversationId: 'c',
    messageId: 'm1',
    text: '提交报销单并附上发票 [1]。',
    citations: [source],
    sources: [source, { ...source, n: 2, title: '差旅政策' }],
    droppedMarkers: [],
    mode: 'model',
    incomplete: false,
    error: null,
    usage: null,
  },
};

describe('conversationMarkdown', () => {
  it('writes each question, its answer with markers, and the cited sources quoted with where they come from', () => {
    expect(
      conversationMarkdown(
        '报销',
        [exchange],
        { sources: 'Sources', exported: 'Exported from Cairn' },
        new Date('2026-11-30T08:05:00Z'),
      ),
    ).toBe(
      [
        '# 报销',
        '_Exported from Cairn 2026-11-30 08:05_',
        '## 怎么报销？',
        '提交报销单并附上发票 [1]。',
        '**Sources**',
        '[1] **报销流程** (notes · 报销流程 › 提交) </notes/expense.md>\n\n> 员工提交报销单。\n>\n> 附上发票。',
      ].join('\n\n') + '\n',
    );
    expect(exportFileName('a/b: 怎么*报销?')).toBe('a b 怎么 报销.md');
    expect(exportFileName('  ')).toBe('conversation.md');
  });
});
