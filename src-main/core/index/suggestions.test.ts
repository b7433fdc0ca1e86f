import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCairn, type CairnInternals } from '../app/create-cairn';
import { silentLogger } from '../logging/logger';
import { syncToEnd, unwrap } from '../../testing/integration-kit';
import { cleanHeading, isTopic } from './suggestions';

let scratch: string;
let cairn: CairnInternals;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'cairn-topics-'));
  const folder = join(scratch, 'notes');
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, 'expense.md'),
    '# 报销流程\n\n## 概述\n\n本文说明报销。\n\n## 2.1 发票要求\n\n发票须为原件。\n\n## 审批\n\n经理审批。\n',
  );
  writeFileSync(
    join(folder, 'vpn.md'),
    '# VPN setup\n\n## Overview\n\nWhat it is.\n\n## Installing the client on macOS\n\nDownload it.\n',
  );
  writeFileSync(join(folder, 'empty-headings.md'), '# Release checklist\n\nShip it when green.\n');
  cairn = await createCairn({ scheduler: false, env: {}, logger: silentLogger() });
  const id = unwrap(
    await cairn.api.connections.add({
      platform: 'folder',
      name: 'notes',
      mode: 'rag',
      config: { path: folder },
      secrets: {},
    }),
  ).id;
  await syncToEnd(cairn, id);
});

afterAll(async () => {
  await cairn.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

describe('documents.topics', () => {
  it('offers headings from every document before a second one from any, skipping generic ones', async () => {
    const topics = unwrap(await cairn.api.documents.topics({ limit: 6 }));
    const texts = topics.map((topic) => topic.text);
    expect(texts).not.toContain('概述');
    expect(texts).not.toContain('Overview');
    expect(texts).toContain('发票要求');
    expect(texts).toContain('Installing the client on macOS');
    expect(texts).toContain('Release checklist');
    // The first three come from three different documents.
    expect(new Set(topics.slice(0, 3).map((topic) => topic.documentId)).size).toBe(3);
    for (const topic of topics) expect(topic.title).toBeTruthy();
    expect(unwrap(await cairn.api.documents.topics({ limit: 2 }))).toHaveLength(2);
  });

  it('is empty on an empty index', async () => {
    const empty = await createCairn({ scheduler: false, env: {}, logger: silentLogger() });
    try {
      expect(unwrap(await empty.api.documents.topics({}))).toEqual([]);
    } finally {
      await empty.dispose();
    }
  });
});

describe('topic filters', () => {
  it('strips numbering and keeps headings a person would search for', () => {
    expect(cleanHeading('2.1 发票要求')).toBe('发票要求');
    expect(cleanHeading('第三章 审批')).toBe('审批');
    expect(cleanHeading('1. Rate limiting:')).toBe('Rate limiting');
    // A bracket or quote that belongs to the heading stays; a stray one goes.
    expect(cleanHeading('Onboarding checklist (part 6)')).toBe('Onboarding checklist (part 6)');
    expect(cleanHeading('「重要」通知：')).toBe('「重要」通知');
    expect(cleanHeading('会议纪要（第二次）')).toBe('会议纪要（第二次）');
    expect(cleanHeading('Release notes)')).toBe('Release notes');
    expect(cleanHeading('— Notes —')).toBe('Notes');
    expect(['报销流程', 'Rate limiting'].every(isTopic)).toBe(true);
    expect(
      [
        '目录',
        'Summary',
        '2024',
        '报',
        'A very long heading that goes on and on for far too many words',
      ].some(isTopic),
    ).toBe(false);
  });
});
