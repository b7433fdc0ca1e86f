/**
 * The preview renders a document as consecutive Markdown segments cut at its chunks' starts (the
 * chunker cuts at headings and block boundaries, so each piece is valid Markdown on its own), plus
 * cuts around the passage to mark, moved to whole lines. The segments that overlap the passage are
 * the ones highlighted and scrolled into view.
 */
import type { DocumentChunkView } from '@shared/models';

export interface PreviewSegment {
  start: number;
  end: number;
  markdown: string;
  /** Part of the passage the preview was opened for. */
  target: boolean;
}

export interface PassageRange {
  charStart: number;
  charEnd: number;
}

function lineStart(text: string, at: number): number {
  return at <= 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1;
}

function lineEnd(text: string, at: number): number {
  if (at <= 0) return 0;
  const next = text.indexOf('\n', at - 1);
  return next === -1 ? text.length : next + 1;
}

export function previewSegments(
  markdown: string,
  chunks: Pick<DocumentChunkView, 'charStart'>[],
  passage: PassageRange | null,
): PreviewSegment[] {
  const length = markdown.length;
  const valid =
    passage && passage.charStart >= 0 && passage.charEnd > passage.charStart && passage.charStart < length
      ? {
          start: lineStart(markdown, passage.charStart),
          end: lineEnd(markdown, Math.min(passage.charEnd, length)),
        }
      : null;
  const cuts = new Set<number>([0, length]);
  for (const chunk of chunks)
    if (chunk.charStart > 0 && chunk.charStart < length) cuts.add(lineStart(markdown, chunk.charStart));
  if (valid) {
    cuts.add(valid.start);
    cuts.add(valid.end);
  }
  const sorted = [...cuts].filter((cut) => cut >= 0 && cut <= length).sort((a, b) => a - b);
  const segments: PreviewSegment[] = [];
  for (let i = 0; i + 1 < sorted.length; i += 1) {
    const start = sorted[i]!;
    const end = sorted[i + 1]!;
    if (end <= start) continue;
    segments.push({
      start,
      end,
      markdown: markdown.slice(start, end),
      target: valid !== null && start < valid.end && end > valid.start,
    });
  }
  return segments.length > 0 ? segments : [{ start: 0, end: 0, markdown: '', target: false }];
}
