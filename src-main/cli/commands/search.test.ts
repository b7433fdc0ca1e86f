import { describe, expect, it } from 'vitest';
import { createCairn } from '../../core/app/create-cairn';
import { silentLogger } from '../../core/logging/logger';
import { runCli } from '../../testing/run-cli';
import type { OpenCairnOptions } from '../open-cairn';
import type { SearchHit, SearchResponse } from '@shared/models';
import { formatSearch, NO_CONNECTIONS } from './search';

function hit(key: string, fields: Partial<SearchHit>): SearchHit {
  return {
    key,
    source: 'index',
    connectionId: 'c1',
    platform: 'yuque',
    documentId: 1,
    externalId: 'release',
    title: 'Release process',
    knowledgeBase: '产品手册',
    url: null,
    headingPath: '',
    text: '',
    charStart: 0,
    charEnd: 0,
    score: 0.03,
    ranks: { keyword: 1 },
    ...fields,
  };
}

describe('formatSearch', () => {
  it('prints a document once, its best passage first and its other matching passages under it', () => {
    const best = hit('chunk:1', {
      // Core keeps raw titles; the terminal shows them plain.
      headingPath: 'Release process > `Rollback`',
      text: 'Roll back\nwithin five minutes.',
      url: 'https://yuque.test/r',
      ranks: { vector: 2, keyword: 1 },
    });
    const second = hit('chunk:2', {
      headingPath: 'Release process > 发布检查',
      text: `发布前检查${'清单'.repeat(80)}`,
      ranks: { keyword: 3 },
    });
    const third = hit('chunk:3', { text: 'No heading here.', ranks: { vector: 5 } });
    const other = hit('chunk:9', {
      documentId: 2,
      externalId: 'vpn',
      title: 'VPN 设置',
      knowledgeBase: '',
      platform: 'folder',
      text: '连接 VPN。',
      ranks: { keyword: 2 },
    });
    const response: SearchResponse = {
      hits: [best, second, other],
      documents: [
        { best, more: [second, third] },
        { best: other, more: [] },
      ],
      warnings: [],
      tookMs: 12.4,
    };
    expect(formatSearch(response)).toBe(
      [
        '1. Release process — 产品手册 (yuque)  [vector #2 · keyword #1]',
        '   Release process > Rollback',
        '   https://yuque.test/r',
        '   Roll back within five minutes.',
        '   + 2 more passages in this document:',
        `     · Release process > 发布检查: 发布前检查${'清单'.repeat(80)}`.slice(
          0,
          '     · Release process > 发布检查: '.length + 120,
        ) + '…',
        '     · No heading here.',
        '',
        '2. VPN 设置 — folder (folder)  [keyword #2]',
        '   连接 VPN。',
        '',
        '2 documents in 12 ms',
      ].join('\n'),
    );
    expect(
      formatSearch(
        {
          hits: [],
          documents: [],
          warnings: [{ connectionId: 'c9', error: { code: 'TIMEOUT', message: 'No answer.' } }],
          liveSkipped: [
            {
              connectionId: 'c8',
              filters: ['tags'],
              message: 'Team Wiki was not searched: its live search cannot filter by tag.',
            },
          ],
          connectionNamesById: { c9: 'DingTalk', c8: 'Team Wiki' },
          tookMs: 3,
        },
        true,
      ),
    ).toBe(
      [
        'No results match these filters.',
        'warning: DingTalk: No answer.',
        'note: Team Wiki was not searched: its live search cannot filter by tag.',
        '0 documents (filtered) in 3 ms',
      ].join('\n'),
    );
  });
});

describe('cairn search opening the data directory', () => {
  it('opens it as a one-shot read (upkeep for writers and long-running processes is skipped); add-folder does not', async () => {
    const cairn = await createCairn({ scheduler: false, env: {}, logger: silentLogger() });
    try {
      const opened: OpenCairnOptions[] = [];
      await runCli(['search', '报销', '--json'], { cairn, opened });
      await runCli(['add-folder', '/no/such/folder'], { cairn, opened });
      expect(opened.map((options) => options.oneShotRead ?? false)).toEqual([true, false]);
    } finally {
      await cairn.dispose();
    }
  });
});

describe('cairn search with nothing to search', () => {
  it('says how to add a connection instead of printing no results (text and --json)', async () => {
    const cairn = await createCairn({ scheduler: false, env: {}, logger: silentLogger() });
    try {
      const text = await runCli(['search', '报销'], { cairn });
      const json = await runCli(['search', '报销', '--json'], { cairn });
      expect({ text, json: JSON.parse(json.stdout) }).toEqual({
        text: { code: text.code, stdout: '', stderr: `cairn: ${NO_CONNECTIONS} (NOT_FOUND)\n` },
        json: { ok: false, error: { code: 'NOT_FOUND', message: NO_CONNECTIONS } },
      });
      expect(text.code).toBeGreaterThan(0);
      expect(NO_CONNECTIONS).toContain('cairn add-folder <path>');
    } finally {
      await cairn.dispose();
    }
  });
});
