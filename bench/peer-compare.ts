/**
 * Cairn against a peer engine (LanceDB) on the same corpus, vectors and queries: which side each
 * measure favours and by how much. Pure, so the report's arithmetic is unit-tested; the numbers
 * themselves come from one bench run (bench/peer-scenario.ts).
 */

/** One engine's figures in a peer comparison. Latencies are medians over the same queries. */
export interface PeerSide {
  /** Storing chunks + vectors + texts and building the vector and keyword indexes, vectors given. */
  buildS: number;
  vectorP50Ms: number;
  /** Mean recall@10 of the vector search against the exact scan of the same vectors. */
  recallAt10: number;
  keywordP50Ms: number;
  diskMb: number;
}

export type PeerMeasure = keyof PeerSide;

export interface PeerRow {
  measure: PeerMeasure;
  label: string;
  cairn: number;
  peer: number;
  /** peer / cairn; for latency, time and size > 1 means Cairn is better, for recall < 1. */
  ratio: number;
  winner: 'cairn' | 'peer' | 'tie';
}

const MEASURES: { measure: PeerMeasure; label: string; higherIsBetter: boolean; tieWithin: number }[] = [
  { measure: 'buildS', label: 'index build (s)', higherIsBetter: false, tieWithin: 0.02 },
  { measure: 'vectorP50Ms', label: 'vector p50 (ms)', higherIsBetter: false, tieWithin: 0.02 },
  // Recall is compared by difference: 0.995 against 1.0 is a tie for any reader.
  { measure: 'recallAt10', label: 'recall@10 vs exact', higherIsBetter: true, tieWithin: 0.005 },
  { measure: 'keywordP50Ms', label: 'keyword p50 (ms)', higherIsBetter: false, tieWithin: 0.02 },
  { measure: 'diskMb', label: 'disk (MB)', higherIsBetter: false, tieWithin: 0.02 },
];

/** Row by row: the ratio peer/cairn and who wins (within 2%, or 0.005 of recall, is a tie). */
export function comparePeer(cairn: PeerSide, peer: PeerSide): PeerRow[] {
  return MEASURES.map(({ measure, label, higherIsBetter, tieWithin }) => {
    const c = cairn[measure];
    const p = peer[measure];
    const ratio = c === 0 ? (p === 0 ? 1 : Number.POSITIVE_INFINITY) : p / c;
    const close = measure === 'recallAt10' ? Math.abs(p - c) <= tieWithin : Math.abs(ratio - 1) <= tieWithin;
    const cairnBetter = higherIsBetter ? c > p : c < p;
    const winner =
      !Number.isFinite(c) || !Number.isFinite(p) || close ? 'tie' : cairnBetter ? 'cairn' : 'peer';
    return { measure, label, cairn: c, peer: p, ratio, winner };
  });
}

/** "3.2× (Cairn)" style cell: the ratio as the better side sees it, so every cell reads ≥ 1×. */
export function ratioCell(row: PeerRow): string {
  if (row.winner === 'tie') return 'tie';
  if (row.measure === 'recallAt10') {
    const diff = Math.abs(row.cairn - row.peer);
    return `+${diff.toFixed(3)} (${row.winner === 'cairn' ? 'Cairn' : 'LanceDB'})`;
  }
  const factor = row.ratio >= 1 ? row.ratio : 1 / row.ratio;
  const shown = Number.isFinite(factor) ? `${factor.toFixed(factor < 10 ? 2 : 1)}×` : '∞×';
  return `${shown} (${row.winner === 'cairn' ? 'Cairn' : 'LanceDB'})`;
}

/** The measures on which the peer beats Cairn: the README must say why and what closes each. */
export function peerWins(rows: readonly PeerRow[]): PeerMeasure[] {
  return rows.filter((r) => r.winner === 'peer').map((r) => r.measure);
}
