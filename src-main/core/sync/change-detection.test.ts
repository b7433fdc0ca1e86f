import { describe, expect, it } from 'vitest';
import type { DocumentRef } from '../connectors/connector';
import type { StoredDocumentState } from '../index/document-store';
import { goneUpstream, planChanges } from './change-detection';

function ref(externalId: string, revision: string | null): DocumentRef {
  return { externalId, title: externalId, knowledgeBase: '', url: null, remoteUpdatedAt: null, revision };
}
function state(externalId: string, revision: string | null, contentHash = 'h'): StoredDocumentState {
  return {
    id: 1,
    externalId,
    title: externalId,
    knowledgeBase: '',
    url: null,
    revision,
    remoteUpdatedAt: null,
    contentHash,
    chunkCount: 1,
  };
}

describe('planChanges', () => {
  it('skips only documents whose known revision is unchanged; everything else is fetched', () => {
    const stored = new Map([
      ['same', state('same', 'r1')],
      ['moved', state('moved', 'r1')],
      ['norev', state('norev', null)],
      ['gone', state('gone', 'r1')],
    ]);
    const plan = planChanges(
      [ref('same', 'r1'), ref('moved', 'r2'), ref('norev', null), ref('new', 'r1')],
      stored,
    );
    expect({
      fetch: plan.toFetch.map((r) => r.externalId),
      skip: plan.unchanged.map((r) => r.externalId),
    }).toEqual({ fetch: ['moved', 'norev', 'new'], skip: ['same'] });
    expect(goneUpstream(new Set(['same', 'moved', 'norev', 'new']), stored)).toEqual(['gone']);
  });
});
