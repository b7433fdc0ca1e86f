/**
 * pgvector's text input format. PGlite speaks the text protocol, so vectors travel as
 * '[x,y,…]' literals; seven significant digits keep float32 precision at a third of the size
 * of JavaScript's shortest round-trip form.
 */
export function toVectorLiteral(vector: ArrayLike<number>): string {
  const parts = new Array<string>(vector.length);
  for (let i = 0; i < vector.length; i++) {
    const x = vector[i] ?? 0;
    parts[i] = Number.isFinite(x) ? (x === 0 ? '0' : x.toPrecision(7)) : '0';
  }
  return `[${parts.join(',')}]`;
}
