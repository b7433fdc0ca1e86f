/**
 * Where a streamed delta lands in an answer's text. Each `chat.token` says at which character it
 * starts (its offset), so a client whose event stream broke and came back can tell a repeat (drop
 * it) from a gap (keep only the text it is sure of, and catch up from chat.messages).
 */
export interface Landing {
  text: string;
  /** Tokens before this one went missing: the text stays as it was until a catch-up fills it. */
  gap: boolean;
}

export function landDelta(text: string, offset: number, delta: string): Landing {
  if (offset > text.length) return { text, gap: true };
  if (offset + delta.length <= text.length) return { text, gap: false };
  return { text: text.slice(0, offset) + delta, gap: false };
}

/** Of two texts streamed for one answer (both start at its beginning), the one that got further. */
export function furthest(a: string, b: string): string {
  return b.length > a.length ? b : a;
}
