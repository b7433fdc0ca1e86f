import { describe, expect, it } from 'vitest';
import type { CairnApi } from '@shared/contract';
import { ok } from '@shared/errors';
import type { ConnectionView } from '@shared/models';
import { resolveConnection } from './resolve-connection';

function apiWith(names: [id: string, name: string][]): CairnApi {
  const views = names.map(([id, name]) => ({ id, name }) as ConnectionView);
  return { connections: { list: async () => ok(views) } } as unknown as CairnApi;
}

describe('resolveConnection', () => {
  it('resolves ids, exact names and unique case-insensitive names, and explains the rest', async () => {
    const api = apiWith([
      ['docs-1', 'Docs'],
      ['docs-2', 'DOCS'],
      ['hb-3', 'Handbook'],
    ]);
    const ids = async (typed: string) => {
      const found = await resolveConnection(api, typed);
      return found.ok ? found.value.id : found.error;
    };
    expect(await Promise.all(['docs-1', 'DOCS', 'handbook', 'docs', 'nope'].map(ids))).toEqual([
      'docs-1',
      'docs-2',
      'hb-3',
      {
        code: 'INVALID_ARGUMENT',
        message: '"docs" matches several connections (Docs, DOCS); use the exact name or the id.',
      },
      { code: 'NOT_FOUND', message: 'No connection named "nope". Connections: Docs, DOCS, Handbook.' },
    ]);
  });
});
