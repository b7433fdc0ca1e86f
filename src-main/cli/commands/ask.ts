/**
 * `cairn ask "<question>"`: a cited answer from the index, streamed to a terminal, with its
 * numbered sources; `--json` prints one document with the answer, the cited source cards and usage.
 * Goes through the contract like every UI: api.chat.ask, then the chat.token / chat.done events.
 */
import { parseArgs } from 'node:util';
import type { ChatAnswer, SourceCard } from '@shared/models';
import { plainHeadingPath } from '@shared/plain-heading';
import { freshnessLine } from '@shared/time-ago';
import type { CliCommand, CliContext } from '../command';

const USAGE = 'cairn ask "<question>" [--json] [--k N] [--conversation <id>]';

export const askCommand: CliCommand = {
  name: 'ask',
  summary: 'Answer a question from your documents, with numbered sources',
  usage: USAGE,
  async run(args, context) {
    let parsed: {
      question: string;
      json: boolean;
      k: number | undefined;
      conversationId: string | undefined;
    };
    try {
      parsed = parseAskArgs(args);
    } catch (error) {
      context.stderr.write(`cairn ask: ${(error as Error).message}\nusage: ${USAGE}\n`);
      return 2;
    }
    const cairn = await context.open();
    try {
      return await ask(cairn, parsed, context);
    } finally {
      await cairn.dispose();
    }
  },
};

export function parseAskArgs(args: string[]): {
  question: string;
  json: boolean;
  k: number | undefined;
  conversationId: string | undefined;
} {
  const { values, positionals } = parseArgs({
    args,
    options: { json: { type: 'boolean' }, k: { type: 'string' }, conversation: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  const question = positionals.join(' ').trim();
  if (!question) throw new Error('The question is missing.');
  let k: number | undefined;
  if (values.k !== undefined) {
    k = Number(values.k);
    if (!/^\d+$/.test(values.k.trim()) || k < 1 || k > 50)
      throw new Error(`--k must be a whole number from 1 to 50, not "${values.k}".`);
  }
  return { question, json: values.json ?? false, k, conversationId: values.conversation };
}

async function ask(
  cairn: Awaited<ReturnType<CliContext['open']>>,
  input: { question: string; json: boolean; k: number | undefined; conversationId: string | undefined },
  io: CliContext,
): Promise<number> {
  const live = !input.json && io.stdout.isTTY === true;
  // Events are collected from before the request, so none are missed however fast the answer is.
  const early: { messageId: string; delta: string }[] = [];
  let messageId: string | null = null;
  let deliver: ((answer: ChatAnswer) => void) | null = null;
  const finished = new Map<string, ChatAnswer>();
  const offToken = cairn.events.on('chat.token', (token) => {
    if (messageId === null) early.push(token);
    else if (token.messageId === messageId && live) io.stdout.write(token.delta);
  });
  const offDone = cairn.events.on('chat.done', (answer) => {
    finished.set(answer.messageId, answer);
    if (answer.messageId === messageId) deliver?.(answer);
  });
  const cancel = () => {
    if (messageId) void cairn.api.chat.cancel({ messageId });
  };
  // Ctrl-C (the dispatcher's signal) cancels the answer; the partial text is kept and marked incomplete.
  io.signal.addEventListener('abort', cancel, { once: true });
  try {
    const started = await cairn.api.chat.ask({
      question: input.question,
      ...(input.k ? { k: input.k } : {}),
      ...(input.conversationId ? { conversationId: input.conversationId } : {}),
    });
    if (!started.ok) {
      if (input.json) io.stdout.write(`${JSON.stringify({ ok: false, error: started.error }, null, 2)}\n`);
      else io.stderr.write(`cairn: ${started.error.message} (${started.error.code})\n`);
      return started.error.code === 'INVALID_ARGUMENT' ? 2 : 1;
    }
    messageId = started.value.messageId;
    // A Ctrl-C that came while the question was being stored had no answer to cancel yet.
    if (io.signal.aborted) cancel();
    if (live) for (const token of early) if (token.messageId === messageId) io.stdout.write(token.delta);
    const answer =
      finished.get(messageId) ?? (await new Promise<ChatAnswer>((resolve) => (deliver = resolve)));

    if (input.json) io.stdout.write(`${JSON.stringify(toJson(answer), null, 2)}\n`);
    else io.stdout.write(formatAnswer(answer, live));
    if (answer.error && !input.json)
      io.stderr.write(`cairn: ${answer.error.message} (${answer.error.code})\n`);
    if (!answer.incomplete) return 0;
    return answer.error?.code === 'CANCELLED' ? 130 : 1;
  } finally {
    io.signal.removeEventListener('abort', cancel);
    offToken();
    offDone();
  }
}

/** The --json document: the answer text, the cited source cards, usage and state. */
export function toJson(answer: ChatAnswer) {
  return {
    conversationId: answer.conversationId,
    messageId: answer.messageId,
    answer: answer.text,
    citations: answer.citations,
    usage: answer.usage,
    mode: answer.mode,
    incomplete: answer.incomplete,
    droppedMarkers: answer.droppedMarkers,
    error: answer.error,
    searchedFor: answer.searchedFor ?? [],
  };
}

/** Human output. When the text was already streamed, only what follows it is printed. */
export function formatAnswer(answer: ChatAnswer, alreadyStreamed: boolean): string {
  const lines: string[] = [];
  if (!alreadyStreamed) lines.push(answer.text);
  else lines.push('');
  if (alreadyStreamed && answer.droppedMarkers.length > 0) {
    lines.push(
      '',
      `(Removed citation${answer.droppedMarkers.length === 1 ? '' : 's'} to no source: ${answer.droppedMarkers.map((n) => `[${n}]`).join(' ')})`,
    );
  }
  if (answer.incomplete) lines.push('', '(incomplete answer)');
  // The query behind the answer: a wrong answer is often a wrong rewrite of a follow-up.
  if (answer.searchedFor && answer.searchedFor.length > 0)
    lines.push('', `Searched for: ${answer.searchedFor.map((query) => `“${query}”`).join(' and ')}`);
  if (answer.citations.length > 0) {
    lines.push('', 'Sources:');
    for (const card of answer.citations) lines.push(...formatCard(card));
  }
  if (answer.usage)
    lines.push(
      '',
      `Tokens: ${answer.usage.promptTokens} prompt + ${answer.usage.completionTokens} answer = ${answer.usage.totalTokens}`,
    );
  return `${lines.join('\n')}\n`;
}

function formatCard(card: SourceCard): string[] {
  const where = [card.knowledgeBase, card.platform].filter(Boolean).join(' · ');
  const heading = card.headingPath ? ` › ${plainHeadingPath(card.headingPath)}` : '';
  const paragraph = card.paragraph.replace(/\s+/g, ' ').trim();
  return [
    `[${card.n}] ${card.title}${heading} (${where})`,
    ...(card.url ? [`    ${card.url}`] : []),
    `    “${paragraph.length > 200 ? `${paragraph.slice(0, 200)}…` : paragraph}”`,
    ...(card.freshness ? [`    ${freshnessLine(card.freshness, new Date())}`] : []),
  ];
}
