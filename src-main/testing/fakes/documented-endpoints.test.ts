/**
 * docs/connectors.md is the list of what Cairn may ask each platform: every path a connector
 * requests from its fake during a whole sync, a search and a Test must be named in its platform's
 * sections of that document. A connector calling an undocumented path, or a fake serving one the
 * connector then relies on, fails here until the document gives it a row and a source.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connector } from '../../core/connectors/connector';
import { DingTalkConnector } from '../../core/connectors/dingtalk/dingtalk-connector';
import { FeishuConnector } from '../../core/connectors/feishu/feishu-connector';
import { ImaConnector } from '../../core/connectors/ima/ima-connector';
import { YuqueConnector } from '../../core/connectors/yuque/yuque-connector';
import { silentLogger } from '../../core/logging/logger';
import { listAll } from '../connector-test-kit';
import { startDingTalkFake, type DingTalkFake } from './dingtalk-fake';
import { startFeishuFake, type FeishuFake } from './feishu-fake';
import { startImaFake, type ImaFake } from './ima-fake';
import { startYuqueFake, type YuqueFake } from './yuque-fake';

const DOC = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'connectors.md'), 'utf8');
const LIFTED = { intervalMs: 1000, intervalCap: 10_000 };

/** The `code` spans of every `## ` section whose heading names the platform. */
function documentedSpans(heading: RegExp): string[] {
  const sections = DOC.split(/^## /m).filter((section) => heading.test(section.split('\n')[0] ?? ''));
  return sections.flatMap((section) => [...section.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!));
}

/**
 * Paths as patterns: an absolute URL keeps its path, `:id` and `{id}` match one segment, a query
 * is dropped; `prefix` is what the platform puts in front of the paths its table lists.
 */
function documentedPaths(heading: RegExp, prefix = ''): RegExp[] {
  return (
    documentedSpans(heading)
      .map((span) => span.replace(/^(GET|POST)\s+/, '').replace(/^https?:\/\/[^/]+/, ''))
      // `/user`, `/repos/{book_id}/toc`, or a relative action such as `wiki/v1/get_media_info`.
      .filter((span) => /^(\/[\w.:{}-]+|[\w.-]+\/[\w.:{}-]+)(\/[\w.:{}-]+)*\/?(\?.*)?$/.test(span))
      .map((span) => {
        const path = span.split('?')[0]!.replace(/^\/?/, '/');
        const pattern = path
          .split('/')
          .map((segment) =>
            /^(:\w+|\{\w+\})$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
          )
          .join('/');
        return new RegExp(`^(${prefix})?${pattern}$`);
      })
  );
}

function undocumented(paths: string[], patterns: RegExp[]): string[] {
  return [...new Set(paths)].filter((path) => !patterns.some((pattern) => pattern.test(path))).sort();
}

/** A whole sync's worth of calls: Test, listing, every document, a search. */
async function exercise(connector: Connector, query: string): Promise<void> {
  await connector.validate();
  const refs = await listAll(connector);
  await Promise.allSettled(refs.map((ref) => connector.fetch(ref)));
  await connector.search(query, { limit: 5 });
}

describe('every path a connector requests is in docs/connectors.md', () => {
  let feishu: FeishuFake;
  let yuque: YuqueFake;
  let dingtalk: DingTalkFake;
  let ima: ImaFake;
  beforeAll(async () => {
    [feishu, yuque, dingtalk, ima] = await Promise.all([
      startFeishuFake({ documents: 12 }),
      startYuqueFake({ documents: 12 }),
      startDingTalkFake({ documents: 12 }),
      startImaFake({ documents: 12 }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([feishu, yuque, dingtalk, ima].map((fake) => fake?.close()));
  });

  it('reads the document: each platform has documented paths, and a path it does not name is caught', () => {
    for (const heading of [/Feishu/, /Yuque/, /DingTalk/])
      expect(documentedPaths(heading).length).toBeGreaterThan(5);
    expect(documentedPaths(/IMA/, '/openapi').length).toBeGreaterThan(5);
    expect(undocumented(['/open-apis/authen/v1/access_token'], documentedPaths(/Feishu/))).toEqual([
      '/open-apis/authen/v1/access_token',
    ]);
  });

  it('Feishu (tenant and user token, drive folders, sheets and bitables)', async () => {
    const connector = new FeishuConnector(
      'feishu',
      {
        config: {
          baseUrl: feishu.baseUrl,
          appId: feishu.credentials.appId,
          driveFolderTokens: feishu.credentials.driveFolderTokens,
        },
        secrets: {
          appSecret: feishu.credentials.appSecret,
          userRefreshToken: feishu.control.latestRefreshToken,
        },
        logger: silentLogger(),
        saveSecrets: async () => {},
      },
      { rates: { api: LIFTED, content: LIFTED }, http: { backoffBaseMs: 5, backoffMaxMs: 20 } },
    );
    await exercise(connector, '向量检索');
    const paths = feishu.control.requests.map((request) => request.path);
    expect(paths.length).toBeGreaterThan(20);
    expect(undocumented(paths, documentedPaths(/Feishu/))).toEqual([]);
  });

  it('Yuque (paths under /api/v2)', async () => {
    const connector = new YuqueConnector(
      {
        config: { baseUrl: yuque.baseUrl },
        secrets: { token: yuque.credentials.token },
        logger: silentLogger(),
      },
      { http: { backoffBaseMs: 5, backoffMaxMs: 20, rate: LIFTED } },
    );
    await exercise(connector, '中文');
    const paths = yuque.control.requests.map((request) => request.path);
    expect(paths.length).toBeGreaterThan(10);
    expect(undocumented(paths, documentedPaths(/Yuque/, '/api/v2'))).toEqual([]);
  });

  it('DingTalk (userId to unionId, the blocks API, My Docs)', async () => {
    const { appKey, appSecret, oapiBaseUrl } = dingtalk.credentials;
    const connector = new DingTalkConnector(
      {
        config: {
          baseUrl: dingtalk.baseUrl,
          oapiBaseUrl: oapiBaseUrl!,
          appKey: appKey!,
          userId: dingtalk.control.userId,
        },
        secrets: { appSecret: appSecret! },
        logger: silentLogger(),
      },
      { rateLimitWaitMs: 5, http: { backoffBaseMs: 5, rate: LIFTED } },
    );
    await exercise(connector, '知识');
    const paths = dingtalk.control.requests.map((request) => request.replace(/^\w+ /, '').split('?')[0]!);
    expect(paths.length).toBeGreaterThan(10);
    expect(undocumented(paths, documentedPaths(/DingTalk/))).toEqual([]);
  });

  it('IMA (POST actions under /openapi; signed download links are the answers’ own URLs)', async () => {
    const connector = new ImaConnector(
      {
        config: { baseUrl: ima.baseUrl, clientId: ima.credentials.clientId! },
        secrets: { apiKey: ima.credentials.apiKey! },
        logger: silentLogger(),
      },
      { requestsPerSecond: 1000, http: { backoffBaseMs: 5 } },
    );
    await exercise(connector, '笔记');
    const paths = ima.control.requests
      .map((request) => request.replace(/^\w+ /, ''))
      .filter((path) => !path.startsWith('/cos/'));
    expect(paths.length).toBeGreaterThan(5);
    expect(undocumented(paths, documentedPaths(/IMA/, '/openapi'))).toEqual([]);
  });
});
