/**
 * The MCP tools show heading paths as read: core keeps raw titles (`tidb_mem_quota_query` with its
 * backticks), the AI tool gets them plain, in heading_path and in the fenced text's section.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '@shared/errors';
import type { SearchHit, SearchResponse } from '@shared/models';
import type { CairnSession } from '../instance/session';
import { CairnAccess } from './cairn-access';
import { createCairnMcpServer } from './mcp-server';

const hit: SearchHit = {
  key: 'chunk:7',
  source: 'index',
  connectionId: 'c1',
  platform: 'folder',
  documentId: 3,
  externalId: 'system-variables.md',
  title: '系统变量',
  knowledgeBase: 'docs',
  url: null,
  headingPath: '系统变量 > 变量参考 > `tidb_mem_quota_query`',
  text: '默认值：1073741824',
  charStart: 0,
  charEnd: 20,
  score: 0.03,
  ranks: { keyword: 1 },
};
const response: SearchResponse = {
  hits: [hit],
  documents: [{ best: hit, more: [] }],
  warnings: [],
  tookMs: 1,
};

let access: CairnAccess | null = null;
afterEach(async () => {
  await access?.dispose();
});

describe('MCP heading paths', () => {
  it('search gives heading_path and the section without Markdown backticks', async () => {
    const search = { query: () => Promise.resolve(ok(response)) };
    const session = {
      api: { search },
      cancellable: () => ({ search }),
      alive: () => true,
      answeredBy: { via: 'socket', kind: 'serve', pid: 1 },
      dispose: () => Promise.resolve(),
    } as unknown as CairnSession;
    access = new CairnAccess({ connect: () => Promise.resolve(session) });
    const server = createCairnMcpServer(access, '0.0.0');
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test', version: '0.0.0' });
    await client.connect(clientSide);
    const result = (await client.callTool({
      name: 'search',
      arguments: { query: '内存限制' },
    })) as unknown as {
      content: { text?: string }[];
      structuredContent: { results: { heading_path: string }[] };
    };
    expect(result.structuredContent.results[0]!.heading_path).toBe(
      '系统变量 > 变量参考 > tidb_mem_quota_query',
    );
    expect(result.content[0]!.text).toContain('section="系统变量 &#62; 变量参考 &#62; tidb_mem_quota_query"');
    await client.close();
  });
});
