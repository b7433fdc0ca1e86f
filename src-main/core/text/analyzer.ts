// PLACEHOLDER until the analyzer lands (issue #2): lower-cased \w+ runs and single CJK characters. Interface is final.

/** Index-time and query-time analysis for the keyword channel: the same function on both sides. */
export function analyze(text: string): string[] {
  return text.toLowerCase().match(/[\p{Script=Han}]|[\p{L}\p{N}]+/gu) ?? [];
}

/** The analysed text stored in `chunks.search_text`: tokens joined by single spaces. */
export function toSearchText(text: string): string {
  return analyze(text).join(' ');
}
