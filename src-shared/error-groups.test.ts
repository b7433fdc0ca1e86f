import { describe, expect, it } from 'vitest';
import { groupErrors } from './error-groups';
import type { DocumentError } from './models/sync';

function failure(id: number, message: string, patch: Partial<DocumentError> = {}): DocumentError {
  return { externalId: `doc-${id}`, title: `Doc ${id}`, code: 'SOURCE_ERROR', message, ...patch };
}

describe('groupErrors', () => {
  it('makes documents that failed the same way one counted group naming the first three, most first', () => {
    const server = 'Yuque server error for GET /api/v2/repos/docs/{id} (gave up after 5 attempts)';
    const errors = [
      failure(1, 'Doc 1 is not readable.', { code: 'DOCUMENT_FAILED' }),
      ...Array.from({ length: 213 }, (_, i) => failure(i + 2, server)),
      failure(300, 'The app lacks Storage.File.Read.', {
        code: 'PERMISSION_DENIED',
        reason: 'dingtalk.missing-permission',
        params: { permissions: 'Storage.File.Read' },
      }),
    ];
    expect(groupErrors(errors)).toEqual([
      { code: 'SOURCE_ERROR', message: server, count: 213, titles: ['Doc 2', 'Doc 3', 'Doc 4'] },
      { code: 'DOCUMENT_FAILED', message: 'Doc 1 is not readable.', count: 1, titles: ['Doc 1'] },
      {
        code: 'PERMISSION_DENIED',
        message: 'The app lacks Storage.File.Read.',
        reason: 'dingtalk.missing-permission',
        params: { permissions: 'Storage.File.Read' },
        count: 1,
        titles: ['Doc 300'],
      },
    ]);
  });

  it('keeps apart what differs in code, reason or sentence, and skipped items from failures', () => {
    const message = 'Cannot reach 127.0.0.1:4010 (ECONNREFUSED).';
    const groups = groupErrors([
      failure(1, message, { code: 'SOURCE_UNREACHABLE' }),
      failure(2, message, { code: 'SOURCE_UNREACHABLE', reason: 'source.unreachable' }),
      failure(3, message, { code: 'TIMEOUT' }),
      failure(4, 'Cannot reach 127.0.0.1:4011 (ECONNREFUSED).', { code: 'SOURCE_UNREACHABLE' }),
      failure(5, 'Too big.', { code: 'DOCUMENT_FAILED', skipped: true, reason: 'folder.too-big' }),
      failure(6, 'Too big.', { code: 'DOCUMENT_FAILED', reason: 'folder.too-big' }),
    ]);
    expect(groups.map((group) => group.count)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(groups[4]).toMatchObject({ skipped: true });
    expect(groupErrors([])).toEqual([]);
  });
});
