/**
 * One result per document: a ranked passage list grouped by the document each passage belongs
 * to. A document ranks where its best passage ranked, and its other passages follow that one,
 * best first. People are shown documents (the app, `cairn search`); chat retrieval keeps the
 * passage list, where two good chunks of one document are two useful sources.
 */
export interface PassageGroup<T> {
  best: T;
  more: T[];
}

export function groupByDocument<T>(ranked: readonly T[], documentOf: (item: T) => string): PassageGroup<T>[] {
  // A Map iterates in insertion order, which is the order of each document's best passage.
  const groups = new Map<string, PassageGroup<T>>();
  for (const item of ranked) {
    const document = documentOf(item);
    const group = groups.get(document);
    if (group) group.more.push(item);
    else groups.set(document, { best: item, more: [] });
  }
  return [...groups.values()];
}
