import { chatApi } from '../app/chat-api';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database';
import { createChatKit, unwrap } from '../../testing/chat-test-kit';
import { ConversationRepository } from './conversation-repository';
import { startFakeOpenAiServer } from '../../testing/fakes/fake-openai-server';

const dataDir = mkdtempSync(join(tmpdir(), 'cairn-chat-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('conversations on disk', () => {
  it('survive a restart with their citations and usage, and an answer cut by the restart is closed as incomplete', async () => {
    const fake = await startFakeOpenAiServer();
    let db = await openDatabase({ dataDir });
    const first = createChatKit(db, {
      chat: { baseUrl: fake.baseUrl, apiKey: fake.apiKey, model: fake.model },
    });
    const answer = await first.ask({ question: 'When does the VPN certificate expire?' });
    const followUp = await first.ask({
      question: 'How do I renew it?',
      conversationId: answer.conversationId,
    });
    const before = unwrap(await chatApi(first.service).messages({ conversationId: answer.conversationId }));
    // An exchange whose answer never finished (the app quit mid-stream).
    const orphan = await new ConversationRepository(db).startExchange('Where is the printer?');
    await first.service.dispose();
    await db.close();
    await fake.close();

    db = await openDatabase({ dataDir });
    const second = createChatKit(db, { chat: null });
    const after = unwrap(await chatApi(second.service).messages({ conversationId: answer.conversationId }));
    expect(after).toEqual(before);
    expect(after.map((m) => m.answer?.citations.map((c) => c.title) ?? null)).toEqual([
      null,
      answer.citations.map((c) => c.title),
      null,
      followUp.citations.map((c) => c.title),
    ]);
    expect(answer.citations[0]?.title).toBe('VPN Guide');
    expect(after[1]!.answer).toEqual(answer);
    expect(after[1]!.answer!.usage!.totalTokens).toBeGreaterThan(0);

    const orphaned = unwrap(
      await chatApi(second.service).messages({ conversationId: orphan!.conversationId }),
    );
    expect(orphaned[1]!.answer).toMatchObject({ incomplete: true, error: { code: 'CANCELLED' } });
    expect(
      unwrap(await chatApi(second.service).conversations())
        .map((c) => c.id)
        .sort(),
    ).toEqual([answer.conversationId, orphan!.conversationId].sort());
    await db.close();
  });
});
