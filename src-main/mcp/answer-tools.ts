/** The `list_sources` and `ask` tools. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ChatAnswer, DocumentView, SourceCard } from '@shared/models';
import { fail, ok } from '@shared/errors';
import { plainHeadingPath } from '@shared/plain-heading';
import type { CairnAccess } from './cairn-access';
import { UNTRUSTED_NOTE, untrusted } from './citations';
import { freshnessLine } from '@shared/time-ago';
import { freshnessFields, freshnessSchema } from './freshness-fields';
import { unwrapOrThrow } from './tool-errors';

const sourcesOutput = {
  connections: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      platform: z.string(),
      mode: z
        .enum(['rag', 'direct'])
        .describe('rag: indexed locally; direct: searched live on the platform.'),
      documents: z.number(),
      chunks: z.number(),
      status: z.string(),
      last_sync: z.string().nullable(),
      next_sync: z.string().nullable(),
      error: z.string().nullable(),
      limitation: z.string().nullable(),
    }),
  ),
  chat_model: z.string().nullable().describe('The model ask uses; null: ask answers extractively.'),
  answered_by: z.string(),
};

const askOutput = {
  answer: z.string().describe('Generated from the passages below; [n] markers refer to citations.'),
  mode: z.enum(['model', 'extractive']),
  incomplete: z.boolean(),
  citations: z.array(
    z.object({
      n: z.number(),
      citation_id: z.string().describe('For fetch; empty for a source searched live (follow its link).'),
      title: z.string(),
      platform: z.string(),
      knowledge_base: z.string(),
      heading_path: z.string(),
      link: z.string().nullable(),
      passage: z.string(),
      ...freshnessSchema('source'),
    }),
  ),
  searched_for: z.array(z.string()).describe('What the answer searched the documents for.'),
  error: z.string().nullable(),
  content_trust: z.literal('untrusted'),
};

export function registerAnswerTools(server: McpServer, access: CairnAccess): void {
  server.registerTool(
    'list_sources',
    {
      title: 'List the knowledge sources',
      description:
        "Lists the user's connected knowledge sources in Cairn (Feishu/Lark, Yuque, DingTalk, Tencent IMA, local folders): name, platform, mode (rag = indexed, direct = searched live), document counts, last and next sync, and any sync error. Use the names as search's connection filter.",
      inputSchema: {},
      outputSchema: sourcesOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (_input, extra) => {
      const status = unwrapOrThrow(
        await access.call((cairn) => cairn.cancellable(extra.signal).app.status()),
        'read its status',
      );
      const by = access.answeredBy();
      const chat = status.settings.chat;
      const structured = {
        // Only what a model needs: never config (URLs, app ids) nor which secrets are stored.
        connections: status.connections.map((view) => {
          const running = status.syncing[view.id];
          return {
            id: view.id,
            name: view.name,
            platform: view.platform,
            mode: view.mode,
            documents: view.documentCount,
            chunks: view.chunkCount,
            status: running
              ? `syncing (${running.phase} ${running.documentsDone}/${running.documentsTotal})`
              : view.syncStatus,
            last_sync: view.lastSyncAt,
            next_sync: view.mode === 'rag' ? view.nextSyncAt : null,
            error: view.syncError,
            limitation: view.limitation,
          };
        }),
        chat_model: chat.provider === 'none' ? null : `${chat.provider}${chat.model ? ` ${chat.model}` : ''}`,
        answered_by: by
          ? `${by.via === 'socket' ? `the running Cairn (${by.kind}, pid ${by.pid})` : `cairn mcp itself (pid ${by.pid})`}`
          : 'unknown',
      };
      const lines = structured.connections.map(
        (c) =>
          `- ${c.name} (${c.platform}, ${c.mode}): ${c.documents} documents, ${c.status}${c.last_sync ? `, last sync ${c.last_sync}` : ''}${c.error ? `; error: ${c.error}` : ''}${c.limitation ? `; ${c.limitation}` : ''}`,
      );
      const text = [
        lines.length ? `${lines.length} sources:` : 'No sources yet: the user adds them in the Cairn app.',
        ...lines,
        `Answers: ${structured.chat_model ?? 'no chat model configured, ask answers extractively'}.`,
      ].join('\n');
      return { content: [{ type: 'text' as const, text }], structuredContent: structured };
    },
  );

  server.registerTool(
    'ask',
    {
      title: 'Answer from the knowledge base',
      description:
        "Answers a question from the user's documents with numbered [n] citations, using the chat model configured in Cairn (without one: an extractive answer made of the best passages, each cited). Slower than search; prefer search when you can compose the answer yourself. Citations carry citation ids for fetch.",
      inputSchema: {
        question: z
          .string()
          .trim()
          .min(1, 'The question is empty.')
          .max(2_000, 'Keep the question under 2,000 characters.')
          .describe('One question, in the language of the documents if you can.'),
        k: z
          .number()
          .int()
          .min(1)
          .max(20)
          .optional()
          .describe('How many passages to answer from (default: the app setting).'),
      },
      outputSchema: askOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (input, extra) => {
      const progressToken = extra._meta?.progressToken;
      const answer = unwrapOrThrow(
        await access.call(async (cairn) => {
          let messageId: string | null = null;
          const done = new Map<string, ChatAnswer>();
          let deliver: ((answer: ChatAnswer) => void) | null = null;
          let streamed = 0;
          let lastProgress = 0;
          const offToken = cairn.events.on('chat.token', (token) => {
            if (token.messageId !== messageId || progressToken === undefined) return;
            streamed = token.offset + token.delta.length;
            if (Date.now() - lastProgress < 250) return;
            lastProgress = Date.now();
            void extra
              .sendNotification({
                method: 'notifications/progress',
                params: { progressToken, progress: streamed, message: 'Writing the answer…' },
              })
              .catch(() => undefined);
          });
          const offDone = cairn.events.on('chat.done', (finished) => {
            done.set(finished.messageId, finished);
            if (finished.messageId === messageId) deliver?.(finished);
          });
          const cancel = () => {
            if (messageId) void cairn.api.chat.cancel({ messageId });
          };
          extra.signal.addEventListener('abort', cancel, { once: true });
          try {
            const started = await cairn.api.chat.ask({
              question: input.question,
              ...(input.k ? { k: input.k } : {}),
            });
            if (!started.ok) return started;
            messageId = started.value.messageId;
            if (extra.signal.aborted) cancel();
            const id = started.value.messageId;
            const finished = await new Promise<ChatAnswer | null>((resolve) => {
              const early = done.get(id);
              if (early) return resolve(early);
              // The instance went away mid-answer (the app quit): say so instead of waiting forever.
              const poll = setInterval(() => {
                if (cairn.alive()) return;
                clearInterval(poll);
                resolve(null);
              }, 500);
              deliver = (value) => {
                clearInterval(poll);
                resolve(value);
              };
            });
            if (!finished) return fail('SOURCE_UNREACHABLE', 'The Cairn instance went away while answering.');
            // The question came from another tool, not from the user's chat: keep the app's history clean.
            await cairn.api.chat.removeConversation({ conversationId: started.value.conversationId });
            const documents = new Map<number, DocumentView>();
            for (const card of finished.citations)
              if (card.documentId !== null && !documents.has(card.documentId)) {
                const read = await cairn.api.documents.get({ documentId: card.documentId });
                if (read.ok) documents.set(card.documentId, read.value);
              }
            return ok({ finished, documents });
          } finally {
            extra.signal.removeEventListener('abort', cancel);
            offToken();
            offDone();
          }
        }),
        'answer',
      );
      const citations = answer.finished.citations.map((card) => ({
        n: card.n,
        citation_id: cardCitationId(card, answer.documents.get(card.documentId ?? -1)),
        title: card.title,
        platform: card.platform,
        knowledge_base: card.knowledgeBase,
        heading_path: plainHeadingPath(card.headingPath),
        link: card.url,
        passage: card.paragraph,
        ...freshnessFields(card.freshness),
      }));
      const now = new Date();
      const structured = {
        answer: answer.finished.text,
        mode: answer.finished.mode,
        incomplete: answer.finished.incomplete,
        citations,
        searched_for: answer.finished.searchedFor ?? [],
        error: answer.finished.error
          ? `${answer.finished.error.message} (${answer.finished.error.code})`
          : null,
        content_trust: 'untrusted' as const,
      };
      const text = [
        answer.finished.mode === 'extractive'
          ? 'No chat model is configured in Cairn: this answer is made of the best passages.'
          : 'Answer written by the chat model configured in Cairn from the passages below.',
        ...(structured.incomplete
          ? [`The answer is incomplete${structured.error ? `: ${structured.error}` : '.'}`]
          : []),
        // The caller's own question (or its rewrite): what retrieval looked for, to retry with other words.
        ...(structured.searched_for.length > 0
          ? [`Searched for: ${structured.searched_for.map((query) => `“${query}”`).join(' and ')}`]
          : []),
        UNTRUSTED_NOTE,
        '',
        untrusted(structured.answer, { kind: 'answer' }),
        '',
        // The title, section, knowledge base and link are the document's too: inside the fence.
        ...citations.flatMap((c, index) => [
          // When the cited copy was edited and synced, and whether it changed since: Cairn's own data.
          `[${c.n}] citation_id: ${c.citation_id} (${c.platform})${freshnessOf(answer.finished.citations[index]!, now)}`,
          untrusted(c.passage, {
            citation: c.citation_id,
            title: c.title,
            section: c.heading_path,
            knowledge_base: c.knowledge_base,
            link: c.link,
          }),
        ]),
      ].join('\n');
      return { content: [{ type: 'text' as const, text }], structuredContent: structured };
    },
  );
}

/** A source card names its paragraph by offsets: the passage id is the chunk that holds them. */
function cardCitationId(card: SourceCard, document: DocumentView | undefined): string {
  // A live (direct-mode) source has nothing Cairn could read back: its link is the way to it.
  if (card.documentId === null) return '';
  const chunk = document?.chunks.find(
    (candidate) =>
      card.charStart !== null && candidate.charStart <= card.charStart && card.charStart < candidate.charEnd,
  );
  return chunk ? `d${card.documentId}#c${chunk.id}` : `d${card.documentId}`;
}

function freshnessOf(card: SourceCard, now: Date): string {
  return card.freshness ? `, ${freshnessLine(card.freshness, now)}` : '';
}
