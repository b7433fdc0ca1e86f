import { describe, expect, it } from 'vitest';
import type { DocumentRef } from '../connectors/connector';
import type { StoredDocumentState } from '../index/document-store';
import { ANALYSIS_VERSION } from '../index/analysis-version';
import { goneUpstream, planChanges } from './change-detection';

function ref(externalId: string, revision: string | null): DocumentRef {
  return { externalId, title: externalId, knowledgeBase: '', url: null, remoteUpdatedAt: null, revision };
}
function state(
  externalId: string,
  revision: string | null,
  contentHash = 'h',
  analysisVersion = ANALYSIS_VERSION,
): StoredDocumentState {
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
    analysisVersion,
  };
}

describe('planChanges', () => {
  it('fetches a document written by an older analysis even when its revision is unchanged', () => {
    const stored = new Map([
      ['old', state('old', 'r1', 'h', ANALYSIS_VERSION - 1)],
      ['current', state('current', 'r1')],
    ]);
    const plan = planChanges([ref('old', 'r1'), ref('current', 'r1')], stored);
    expect(plan.toFetch.map((r) => r.externalId)).toEqual(['old']);
    expect(plan.unchanged.map((r) => r.externalId)).toEqual(['current']);
  });

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
