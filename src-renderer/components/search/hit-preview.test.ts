import { describe, expect, it } from 'vitest';
import { headingTrail, hitPreview } from './hit-preview';

describe('hitPreview', () => {
  it('drops Markdown syntax and keeps the words, tables as cells', () => {
    const chunk =
      '# Notes on backups #14\n\nThis note explains **how** we handle [backups](https://x.example/b).\n\n## Checklist\n\n- Owner is on call\n1. Dashboards\n\n```sql\nSELECT id FROM docs;\n```\n\n| Setting | Value |\n| --- | :---: |\n| region | us-west-1 |';
    expect(hitPreview(chunk, ['backups'])).toBe(
      'Notes on backups #14 — This note explains how we handle backups. Checklist — Owner is on call Dashboards SELECT id FROM docs; Setting · Value region · us-west-1',
    );
  });

  it('drops single-star emphasis and strikethrough but keeps stars in arithmetic and underscores in names', () => {
    expect(hitPreview('An *important* ~~old~~ note: rate_limit = 2 * 3 * x, *备注*。', [])).toBe(
      'An important old note: rate_limit = 2 * 3 * x, 备注。',
    );
  });

  it('leaves out leading headings the card already shows (title, heading path), sets the others off from their text', () => {
    const chunk = '# 报销流程\n\n## 提交\n\n员工提交报销单。\n\n### 附件\n\n发票原件。';
    expect(hitPreview(chunk, [], ['报销流程', '报销流程 > 提交'])).toBe('员工提交报销单。 附件 — 发票原件。');
    // A shown heading after text stays: it says where the text under it begins.
    expect(hitPreview(chunk, [], ['报销流程', '报销流程 > 提交 > 附件'])).toBe(
      '员工提交报销单。 附件 — 发票原件。',
    );
    expect(headingTrail('变量 > `tidb_mem_quota_query`', 'x')).toBe('变量 › tidb_mem_quota_query');
    expect(headingTrail('报销流程 > 提交', '报销流程')).toBe('提交');
    expect(headingTrail('Guide > Setup > VPN', 'VPN setup')).toBe('Guide › Setup › VPN');
    expect(headingTrail('报销流程', '报销流程')).toBeNull();
    expect(headingTrail('', 'x')).toBeNull();
  });

  it('starts shortly before a match that lies deep in the chunk', () => {
    const chunk = `${'第一节内容很长。'.repeat(40)}\n\n## 数据备份\n\n每天凌晨备份一次。`;
    const preview = hitPreview(chunk, ['备份']);
    expect(preview.startsWith('…')).toBe(true);
    expect(preview.indexOf('备份')).toBeLessThanOrEqual(61 + 1);
    expect(preview.endsWith('数据备份 — 每天凌晨备份一次。')).toBe(true);
    expect(hitPreview('short text with a match', ['match'])).toBe('short text with a match');
    expect(hitPreview('no terms at all', [])).toBe('no terms at all');
  });
});
