/**
 * Sample documents for the DEMO backend only (tests, `--demo`, local UI work). Chinese and
 * English on purpose: the UI must show CJK titles, paragraphs and highlights correctly.
 */
export interface DemoDocument {
  /** File name inside a folder connection, slug on a platform. */
  slug: string;
  title: string;
  markdown: string;
  /** Folder connections only: a file the folder connector would refuse (binary). */
  unreadable?: boolean;
}

export const DEMO_DOCUMENTS: DemoDocument[] = [
  {
    slug: 'expense-reimbursement.md',
    title: '报销流程',
    markdown: [
      '# 报销流程',
      '## 提交报销单',
      '员工应在费用发生后 30 天内通过飞书审批提交报销单，并附上电子发票或发票照片。单笔超过 5000 元的报销需要写明业务用途。',
      '## 审批与打款',
      '部门负责人在三个工作日内完成审批，财务复核后于每周五统一打款到工资卡。差旅报销还需附上行程单。',
    ].join('\n\n'),
  },
  {
    slug: 'travel-policy.md',
    title: '差旅政策',
    markdown: [
      '# 差旅政策',
      '## 交通',
      '国内出差优先乘坐高铁二等座；飞行时间超过四小时可以选择经济舱之外的座位，但需提前审批。',
      '## 住宿标准',
      '一线城市每晚住宿标准为 600 元，其他城市为 400 元。超出部分需在报销时说明原因。',
    ].join('\n\n'),
  },
  {
    slug: 'annual-leave.md',
    title: '年假制度',
    markdown: [
      '# 年假制度',
      '## 天数',
      '入职满一年的员工每年享有 10 天带薪年假，每多工作一年增加 1 天，上限 15 天。',
      '## 申请',
      '年假需至少提前三天在系统中申请，未休年假可顺延到次年第一季度。',
    ].join('\n\n'),
  },
  {
    slug: 'weekly-sync-notes.md',
    title: '周会纪要 2024-W18',
    markdown: [
      '# 周会纪要 2024-W18',
      '## 进展',
      '搜索服务的中文分词已上线，“报销”这类两个字的词现在可以被检索到。',
      '## 待办',
      '下周完成语雀知识库的增量同步，并整理向量索引的性能数据。',
    ].join('\n\n'),
  },
  {
    slug: 'onboarding.md',
    title: 'Onboarding guide',
    markdown: [
      '# Onboarding guide',
      '## First week',
      'Your first week is about meeting the team and setting up your laptop. Ask IT for a VPN account on day one; it takes a day to activate.',
      '## Who to ask',
      'Your buddy answers everyday questions. For payroll and expense reimbursement, write to finance@example.com.',
    ].join('\n\n'),
  },
  {
    slug: 'vpn-setup.md',
    title: 'VPN setup',
    markdown: [
      '# VPN setup',
      '## Install',
      'Install the WireGuard client and import the configuration file that IT sends you. On Linux use `wg-quick up cairn`.',
      '## Troubleshooting',
      'If the VPN connects but internal sites do not load, check that DNS points at 10.0.0.53 and restart the client.',
    ].join('\n\n'),
  },
  {
    slug: 'release-checklist.md',
    title: 'Release checklist',
    markdown: [
      '# Release checklist',
      '## Before the release',
      'Freeze the branch on Tuesday, run the full test suite, and write the changelog in both Chinese and English.',
      '## Release day',
      'Tag the release, publish the installers for macOS, Windows and Linux, and announce it in the team channel.',
    ].join('\n\n'),
  },
  {
    slug: 'code-review.md',
    title: 'Code review guidelines',
    markdown: [
      '# Code review guidelines',
      '## What reviewers look for',
      'Reviewers check that names explain themselves, that errors are handled as data at boundaries, and that every feature has a test.',
      '## Response time',
      'Review within one working day. Small pull requests get reviewed faster than large ones.',
    ].join('\n\n'),
  },
  { slug: 'scan-2024-03.pdf', title: 'scan-2024-03.pdf', markdown: '', unreadable: true },
];
