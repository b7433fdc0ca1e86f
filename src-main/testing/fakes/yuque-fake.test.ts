/**
 * The Yuque fake's answers validate against the official OpenAPI 3.1 spec ("语雀 OpenAPI" 2.0.1),
 * read from ../shared/yuque-openapi.json beside the repository (CI puts shared/ there).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSharedReference } from '../shared-reference';
import type { z } from 'zod';
import { parseResponse } from '../../core/connectors/http/response-shape';
import {
  DocDetailAnswer,
  DocsAnswer,
  GroupsAnswer,
  ReposAnswer,
  SearchAnswer,
  TocAnswer,
  UserAnswer,
} from '../../core/connectors/yuque/yuque-schemas';
import { startYuqueFake, type YuqueFake } from './yuque-fake';

const SPEC_ID = 'https://cairn.invalid/yuque-openapi.json';
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

function locateSpec(): string {
  const found = findSharedReference(repoRoot, 'yuque-openapi.json');
  if (!found)
    throw new Error(`yuque-openapi.json not found in shared/ beside ${repoRoot} or in any folder above it.`);
  return found;
}

/**
 * The spec's object schemas are open (no additionalProperties), which makes its `oneOf`
 * (search target: V2Doc | V2Book) unsatisfiable for any real object: it matches both branches.
 * Closing every object schema is stricter than the spec and also proves the fake only uses
 * documented field names.
 */
function closeObjectSchemas(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closeObjectSchemas);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = closeObjectSchemas(value);
  if (out.type === 'object' && out.properties && out.additionalProperties === undefined)
    out.additionalProperties = false;
  return out;
}

type Spec = { paths: Record<string, { get: { responses: Record<string, unknown> } }> };

describe('Yuque fake vs the official OpenAPI spec', () => {
  let fake: YuqueFake;
  let spec: Spec;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);

  beforeAll(async () => {
    spec = JSON.parse(readFileSync(locateSpec(), 'utf8')) as Spec;
    ajv.addSchema({ ...(closeObjectSchemas(spec) as object), $id: SPEC_ID });
    fake = await startYuqueFake({ documents: 30 });
  });
  afterAll(() => fake.close());

  async function get(
    pathAndQuery: string,
    token = fake.credentials.token,
  ): Promise<{ status: number; body: unknown }> {
    const res = await fetch(`${fake.baseUrl}${pathAndQuery}`, { headers: { 'x-auth-token': token } });
    return { status: res.status, body: await res.json() };
  }

  /** Each answer must fit both the official spec and the schema the connector reads it with. */
  const CONNECTOR_SCHEMAS: Record<string, z.ZodType> = {
    '/api/v2/user': UserAnswer,
    '/api/v2/users/{id}/groups': GroupsAnswer,
    '/api/v2/users/{login}/repos': ReposAnswer,
    '/api/v2/groups/{login}/repos': ReposAnswer,
    '/api/v2/repos/{book_id}/docs': DocsAnswer,
    '/api/v2/repos/{group_login}/{book_slug}/docs': DocsAnswer,
    '/api/v2/repos/{book_id}/toc': TocAnswer,
    '/api/v2/repos/{group_login}/{book_slug}/toc': TocAnswer,
    '/api/v2/repos/docs/{id}': DocDetailAnswer,
    '/api/v2/repos/{book_id}/docs/{id}': DocDetailAnswer,
    '/api/v2/repos/{group_login}/{book_slug}/docs/{id}': DocDetailAnswer,
    '/api/v2/search': SearchAnswer,
  };

  function expectValid(schemaRef: string, body: unknown): void {
    const validate = ajv.getSchema(schemaRef) ?? ajv.compile({ $ref: schemaRef });
    const valid = validate(body);
    expect(valid ? [] : validate.errors).toEqual([]);
    const template = decodeURIComponent(schemaRef.split('#/paths/')[1]?.split('/get/')[0] ?? '').replace(
      /~1/g,
      '/',
    );
    const connectorSchema = CONNECTOR_SCHEMAS[template];
    if (connectorSchema) parseResponse(connectorSchema, body, { platform: 'Yuque', endpoint: template });
  }

  const okSchema = (template: string) =>
    `${SPEC_ID}#/paths/${template.replace(/~/g, '~0').replace(/\//g, '~1')}/get/responses/200/content/application~1json/schema`;

  it('serves user, repos, docs, doc detail (markdown, lake, sheet, board) and search in the documented shapes', async () => {
    const user = await get('/user');
    expectValid(okSchema('/api/v2/user'), user.body);
    const personal = await get('/users/cairn-demo/repos?offset=0&limit=100');
    expectValid(okSchema('/api/v2/users/{login}/repos'), personal.body);
    const team = await get('/groups/cairn-team/repos');
    expectValid(okSchema('/api/v2/groups/{login}/repos'), team.body);
    const docs = await get(
      '/repos/cairn-demo/product-handbook/docs?offset=0&limit=5&optional_properties=latest_version_id',
    );
    expectValid(okSchema('/api/v2/repos/{group_login}/{book_slug}/docs'), docs.body);
    const byId = await get('/repos/5000/docs?offset=5&limit=100&changed_at_gte=2025-01-01T00:00:00.000Z');
    expectValid(okSchema('/api/v2/repos/{book_id}/docs'), byId.body);
    const total = (byId.body as { meta: { total: number } }).meta.total;
    expect(total).toBeGreaterThan(5);

    const detailBodies = await Promise.all(
      [
        '/repos/docs/10001',
        '/repos/docs/10007',
        '/repos/5000/docs/90001',
        '/repos/cairn-demo/product-handbook/docs/architecture-board',
      ].map((p) => get(p)),
    );
    for (const detail of detailBodies)
      expectValid(okSchema('/api/v2/repos/{group_login}/{book_slug}/docs/{id}'), detail.body);
    expect(detailBodies.map((d) => (d.body as { data: { format: string } }).data.format)).toEqual([
      'markdown',
      'lake',
      'lakesheet',
      'lake',
    ]);

    const toc = await get('/repos/5000/toc');
    expectValid(okSchema('/api/v2/repos/{book_id}/toc'), toc.body);
    expect((toc.body as { data: { type: string }[] }).data.map((item) => item.type)).toEqual(
      expect.arrayContaining(['TITLE', 'DOC']),
    );
    const byNamespace = await get('/repos/cairn-demo/product-handbook/toc');
    expectValid(okSchema('/api/v2/repos/{group_login}/{book_slug}/toc'), byNamespace.body);
    for (const page of ['', '?page=2&page_size=100']) {
      const table = await get(`/repos/docs/90003${page}`);
      expectValid(okSchema('/api/v2/repos/docs/{id}'), table.body);
      const bodyTable = JSON.parse((table.body as { data: { body_table: string } }).data.body_table) as {
        totalCount: number;
        page: number;
        records: unknown[];
      };
      expect([bodyTable.totalCount, bodyTable.page, bodyTable.records.length]).toEqual([
        250,
        page ? 2 : 1,
        100,
      ]);
    }

    const search = await get(`/search?type=doc&q=${encodeURIComponent('Notes')}&page=1`);
    expectValid(okSchema('/api/v2/search'), search.body);
    expect((search.body as { meta: { pageSize: number }; data: unknown[] }).meta.pageSize).toBe(20);
    const repoSearch = await get(`/search?type=repo&q=${encodeURIComponent('产品')}`);
    expectValid(okSchema('/api/v2/search'), repoSearch.body);
    expect((repoSearch.body as { data: unknown[] }).data).toHaveLength(1);
  });

  it('serves the groups list as an array of V2Group (the spec declares a single object there)', async () => {
    // The spec's /users/{id}/groups says `data: V2Group` yet documents a fixed page size of 100:
    // a list. We validate each element against V2Group.
    const groups = await get('/users/cairn-demo/groups');
    const data = (groups.body as { data: unknown[] }).data;
    expect(Array.isArray(data)).toBe(true);
    for (const group of data) expectValid(`${SPEC_ID}#/components/schemas/V2Group`, group);
    parseResponse(GroupsAnswer, groups.body, { platform: 'Yuque', endpoint: 'groups' });
    const single = await startYuqueFake({ documents: 3, groupsShape: 'object' });
    try {
      const res = await fetch(`${single.baseUrl}/users/cairn-demo/groups`, {
        headers: { 'x-auth-token': single.credentials.token },
      });
      // The spec's own reading: data is one V2Group.
      expectValid(okSchema('/api/v2/users/{id}/groups'), await res.json());
    } finally {
      await single.close();
    }
  });

  it('answers errors with a declared status and a {message} body', async () => {
    const message = {
      type: 'object',
      required: ['message'],
      properties: { message: { type: 'string', minLength: 1 } },
      additionalProperties: false,
    };
    const cases: [string, string, string | undefined, number][] = [
      ['/api/v2/user', '/user', 'wrong-token', 401],
      ['/api/v2/repos/docs/{id}', '/repos/docs/999999', undefined, 404],
      ['/api/v2/search', '/search?type=doc', undefined, 400],
      ['/api/v2/repos/{book_id}/docs', '/repos/5000/docs?limit=500', undefined, 400],
    ];
    for (const [template, request, token, status] of cases) {
      const answer = await get(request, token ?? fake.credentials.token);
      expect([request, answer.status]).toEqual([request, status]);
      expect(Object.keys(spec.paths[template]!.get.responses)).toContain(String(status));
      expect(ajv.validate(message, answer.body)).toBe(true);
    }
    fake.control.inject({ kind: 'rate-limit' });
    const limited = await get('/user');
    expect([limited.status, ajv.validate(message, limited.body)]).toEqual([429, true]);
    const quota = await startYuqueFake({ documents: 3, hourlyQuota: 2 });
    try {
      const ask = () =>
        fetch(`${quota.baseUrl}/user`, { headers: { 'x-auth-token': quota.credentials.token } }).then(
          (r) => r.status,
        );
      expect([await ask(), await ask(), await ask()]).toEqual([200, 200, 429]);
      quota.control.newHour();
      expect(await ask()).toBe(200);
    } finally {
      await quota.close();
    }
  });
});
