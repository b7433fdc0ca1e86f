/** Whitespace-insensitive, case-insensitive containment (a passage may wrap a line). */
export function containsAnswer(passage: string, answers: readonly string[]): boolean {
  const squash = (s: string) => s.replace(/\s+/g, '').toLowerCase();
  const text = squash(passage);
  return answers.some((a) => text.includes(squash(a)));
}
