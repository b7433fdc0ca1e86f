import { describe, expect, it } from 'vitest';
import { comparePeer, peerWins, ratioCell, type PeerSide } from './peer-compare';

const cairn: PeerSide = { buildS: 10, vectorP50Ms: 2, recallAt10: 0.98, keywordP50Ms: 8, diskMb: 100 };

describe('comparePeer', () => {
  it('names the better side per measure: lower time and size, higher recall', () => {
    const peer: PeerSide = { buildS: 5, vectorP50Ms: 6, recallAt10: 0.71, keywordP50Ms: 8.1, diskMb: 250 };
    const rows = comparePeer(cairn, peer);
    expect(rows.map((r) => [r.measure, r.winner])).toEqual([
      ['buildS', 'peer'],
      ['vectorP50Ms', 'cairn'],
      ['recallAt10', 'cairn'],
      // 8.1 / 8 is within 2%: a tie, not a win either way.
      ['keywordP50Ms', 'tie'],
      ['diskMb', 'cairn'],
    ]);
    expect(rows[1]!.ratio).toBeCloseTo(3, 10);
    expect(peerWins(rows)).toEqual(['buildS']);
  });

  it('reads each ratio from the winner’s side and recall as a difference', () => {
    const peer: PeerSide = { buildS: 5, vectorP50Ms: 6, recallAt10: 1, keywordP50Ms: 80, diskMb: 100 };
    const cells = comparePeer(cairn, peer).map(ratioCell);
    expect(cells).toEqual(['2.00× (LanceDB)', '3.00× (Cairn)', '+0.020 (LanceDB)', '10.0× (Cairn)', 'tie']);
  });

  it('treats recall within 0.005 as a tie and survives a zero on Cairn’s side', () => {
    const rows = comparePeer(
      { ...cairn, recallAt10: 0.998, diskMb: 0 },
      { ...cairn, recallAt10: 1, diskMb: 3 },
    );
    expect(rows.find((r) => r.measure === 'recallAt10')!.winner).toBe('tie');
    const disk = rows.find((r) => r.measure === 'diskMb')!;
    expect(disk.winner).toBe('cairn');
    expect(ratioCell(disk)).toBe('∞× (Cairn)');
  });
});
