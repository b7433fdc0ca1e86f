import { describe, expect, it } from 'vitest';
import { matchConnections, matchKnowledgeBases } from './facet-match';

describe('matchConnections', () => {
  const known = [
    { id: 'c1', name: 'Docs' },
    { id: 'c2', name: 'DOCS' },
    { id: 'c3', name: 'Team Wiki' },
    { id: 'Docs', name: 'an id that reads like a name' },
  ];

  it('takes an id first, then the exact name, then every name in any case', () => {
    expect(matchConnections(known, ['Docs'])).toEqual({ ok: true, matched: ['Docs'] });
    expect(matchConnections(known, ['DOCS'])).toEqual({ ok: true, matched: ['c2'] });
    expect(matchConnections(known, [' docs '])).toEqual({ ok: true, matched: ['c1', 'c2'] });
    expect(matchConnections(known, ['team wiki', 'c3'])).toEqual({ ok: true, matched: ['c3'] });
  });

  it('names the connections there are when one matches nothing (no part-of-name matching)', () => {
    expect(matchConnections(known, ['Team'])).toEqual({
      ok: false,
      message:
        'No connection named "Team". Connections: Docs, DOCS, Team Wiki, an id that reads like a name.',
    });
    expect(matchConnections([], ['x'])).toEqual({
      ok: false,
      message: 'No connection named "x". There are no connections yet.',
    });
    const many = Array.from({ length: 25 }, (_, i) => ({ id: `c${i}`, name: `n${i}` }));
    const refused = matchConnections(many, ['x']);
    expect(refused.ok ? '' : refused.message).toMatch(/n18, n19, …\.$/);
  });
});

describe('matchKnowledgeBases', () => {
  const known = ['产品手册', 'Engineering', 'engineering notes'];

  it('takes the exact name, else the name in any case, else every name containing the text', () => {
    expect(matchKnowledgeBases(known, ['Engineering'])).toEqual({ ok: true, matched: ['Engineering'] });
    expect(matchKnowledgeBases(known, ['ENGINEERING'])).toEqual({ ok: true, matched: ['Engineering'] });
    expect(matchKnowledgeBases(known, ['engin'])).toEqual({
      ok: true,
      matched: ['Engineering', 'engineering notes'],
    });
    expect(matchKnowledgeBases(known, ['手册', 'notes'])).toEqual({
      ok: true,
      matched: ['产品手册', 'engineering notes'],
    });
  });

  it('names the knowledge bases there are when one matches nothing', () => {
    expect(matchKnowledgeBases(known, ['nope'])).toEqual({
      ok: false,
      message:
        'No knowledge base named "nope". Knowledge bases: "产品手册", "Engineering", "engineering notes".',
    });
    expect(matchKnowledgeBases([], ['x'])).toEqual({
      ok: false,
      message: 'No knowledge base named "x". Knowledge bases: none indexed yet.',
    });
  });
});
