/**
 * Turns valid [n] markers into `#cite-n` links that AnswerBody renders as buttons. Code spans and
 * fenced blocks are left alone, and a marker that is already a Markdown link is not touched.
 */
const CODE = /(```[\s\S]*?(?:```|$)|`[^`\n]*`)/g;

export function linkCitations(markdown: string, valid: ReadonlySet<number>): string {
  return markdown
    .split(CODE)
    .map((part, index) =>
      index % 2 === 1
        ? part
        : part.replace(/\[(\d{1,3})\](?![([:])/g, (whole, digits: string) =>
            valid.has(Number(digits)) ? `[\\[${digits}\\]](#cite-${digits})` : whole,
          ),
    )
    .join('');
}

export function citationNumber(href: string | undefined): number | null {
  const match = /^#cite-(\d{1,3})$/.exec(href ?? '');
  return match ? Number(match[1]) : null;
}
