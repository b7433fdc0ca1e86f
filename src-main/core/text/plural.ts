/**
 * "1 document", "3 documents", "1,024 documents": a count with its noun in the number English
 * needs. Core's sentences are English (the UI translates by code and params), and "document(s)"
 * reads as a template that was never filled in.
 */
export function countOf(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en')} ${count === 1 ? one : many}`;
}
