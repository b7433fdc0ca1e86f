/**
 * A conversation as a Markdown file: each question as a heading, its answer as it was given (with
 * its [n] markers), then the sources those markers point to, quoted, with where they come from.
 */
import type { SourceCard } from '@shared/models';
import type { ChatExchange } from '../../store/slices/chat-slice';

function quote(text: string): string {
  return text
    .trim()
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');
}

function sourceLine(source: SourceCard): string {
  const place = [source.knowledgeBase, source.headingPath.split(' > ').join(' › ')]
    .filter(Boolean)
    .join(' · ');
  const link = source.url ? ` <${source.url}>` : '';
  return `[${source.n}] **${source.title}**${place ? ` (${place})` : ''}${link}`;
}

export function conversationMarkdown(
  title: string,
  exchanges: ChatExchange[],
  labels: { sources: string; exported: string },
  now = new Date(),
): string {
  const parts = [`# ${title}`, `_${labels.exported} ${now.toISOString().slice(0, 16).replace('T', ' ')}_`];
  for (const exchange of exchanges) {
    parts.push(`## ${exchange.question.replace(/\n+/g, ' ')}`);
    const text = exchange.answer?.text ?? exchange.text;
    if (text.trim()) parts.push(text.trim());
    const sources = exchange.answer
      ? exchange.answer.citations.length > 0
        ? exchange.answer.citations
        : exchange.answer.sources
      : [];
    if (sources.length > 0)
      parts.push(
        `**${labels.sources}**`,
        ...sources.map((source) => `${sourceLine(source)}\n\n${quote(source.paragraph)}`),
      );
  }
  return parts.join('\n\n') + '\n';
}

/** A file name from the title, safe on every OS, e.g. "报销流程是什么.md". */
export function exportFileName(title: string): string {
  const base = title
    .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80);
  return `${base || 'conversation'}.md`;
}
