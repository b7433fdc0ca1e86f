import { describe, expect, it } from 'vitest';
import { fail, ok, type Result } from '@shared/errors';
import type { ChatMessageView } from '@shared/models';
import { storedAnswer, storedTurn } from '../../test/chat-fixtures';
import { fakeBackend, snapshot, type FakeBackend } from '../../test/fake-api';
import { createAppStore } from '../app-store';
import { connectStore } from '../connect-store';
import type { AppStore } from '../store-types';

const CONVERSATION = 'conv-a';
const ANSWER_ID = `${CONVERSATION}-a0`;
const FINAL = 'The office VPN certificate expires every 90 days [1].';

function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** What core's chat.messages says about the answer: still running with this much streamed, or finished. */
function stored(answer: { running: string } | { done: string }): ChatMessageView[] {
  const [question, reply] = storedTurn(
    CONVERSATION,
    0,
    'When does the VPN certificate expire?',
    'done' in answer ? answer.done : null,
  );
  return [question!, 'running' in answer ? { ...reply!, text: answer.running } : reply!];
}

/** A connected store whose question is streaming its answer; `messages` is what chat.messages answers when asked. */
async function streamingChat(
  messages: () => Result<ChatMessageView[]>,
): Promise<{ store: AppStore; backend: FakeBackend; token: (offset: number, delta: string) => void }> {
  const backend = fakeBackend({
    'app.status': () => ok(snapshot()),
    'chat.ask': () => ok({ conversationId: CONVERSATION, messageId: ANSWER_ID }),
    'chat.messages': messages,
  });
  const { store } = createAppStore(backend.api);
  connectStore(store, backend.transport);
  await settle();
  await store.getState().ask('When does the VPN certificate expire?');
  const token = (offset: number, delta: string) =>
    backend.emit('chat.token', { conversationId: CONVERSATION, messageId: ANSWER_ID, delta, offset });
  return { store, backend, token };
}

function shown(store: AppStore) {
  const exchange = store.getState().exchanges[0]!;
  return {
    text: exchange.text,
    status: exchange.status,
    cited: exchange.answer?.citations.map((source) => source.n) ?? null,
  };
}

function messageReads(backend: FakeBackend): number {
  return backend.calls.filter((call) => call.channel === 'chat.messages').length;
}

describe('a chat answer across a break in the event stream', () => {
  it('shows the stored answer when it finished while the stream was down (chat.done was missed)', async () => {
    const { store, backend, token } = await streamingChat(() => ok(stored({ done: FINAL })));
    token(0, 'The office ');
    // The stream breaks here: the rest of the tokens and chat.done go nowhere. Then it is back.
    backend.reconnect();
    await settle();
    expect({
      shown: shown(store),
      reads: backend.calls.filter((call) => call.channel === 'chat.messages').map((call) => call.input),
    }).toEqual({
      shown: { text: FINAL, status: 'done', cited: [1] },
      reads: [{ conversationId: CONVERSATION }],
    });
  });

  it('keeps streaming an answer still running: takes the text streamed so far, drops repeats, appends what follows', async () => {
    const { store, backend, token } = await streamingChat(() =>
      ok(stored({ running: 'The office VPN certificate' })),
    );
    token(0, 'The office ');
    backend.reconnect();
    // Tokens sent after the stream came back, some of which the stored text already holds.
    token(11, 'VPN certificate');
    token(26, ' expires');
    await settle();
    expect(shown(store)).toEqual({
      text: 'The office VPN certificate expires',
      status: 'streaming',
      cited: null,
    });
    token(26, ' expires');
    token(34, ' every 90 days [1].');
    expect(shown(store)).toEqual({
      text: 'The office VPN certificate expires every 90 days [1].',
      status: 'streaming',
      cited: null,
    });
    backend.emit('chat.done', storedAnswer(CONVERSATION, ANSWER_ID, FINAL));
    expect(shown(store)).toEqual({ text: FINAL, status: 'done', cited: [1] });
  });

  it('a token that leaves a gap is not shown after the text; the stored text fills the gap first', async () => {
    const { store, backend, token } = await streamingChat(() =>
      ok(stored({ running: 'The office VPN certificate' })),
    );
    token(0, 'The office ');
    // No reconnect seen (the break was shorter than a heartbeat), but tokens 11..26 never arrived.
    token(26, ' expires');
    expect(shown(store).text).toBe('The office ');
    await settle();
    token(26, ' expires');
    expect({ shown: shown(store), reads: messageReads(backend) }).toEqual({
      shown: { text: 'The office VPN certificate expires', status: 'streaming', cited: null },
      reads: 1,
    });
  });

  it('reads again when more tokens went missing while it was reading, and only one read runs at a time', async () => {
    let release: () => void = () => {};
    let running = 'The office VPN';
    const backend = fakeBackend({
      'app.status': () => ok(snapshot()),
      'chat.ask': () => ok({ conversationId: CONVERSATION, messageId: ANSWER_ID }),
      'chat.messages': async () => {
        const text = running;
        await new Promise<void>((resolve) => (release = resolve));
        return ok(stored({ running: text }));
      },
    });
    const { store } = createAppStore(backend.api);
    connectStore(store, backend.transport);
    await settle();
    await store.getState().ask('When does the VPN certificate expire?');
    const token = (offset: number, delta: string) =>
      backend.emit('chat.token', { conversationId: CONVERSATION, messageId: ANSWER_ID, delta, offset });
    token(0, 'The ');
    backend.reconnect();
    await settle();
    // While the first read waits, core streams further and more gaps show up.
    running = 'The office VPN certificate';
    token(20, 'tificate');
    token(26, ' expires');
    expect(messageReads(backend)).toBe(1);
    release();
    await settle();
    expect({ text: shown(store).text, reads: messageReads(backend) }).toEqual({
      text: 'The office VPN',
      reads: 2,
    });
    release();
    await settle();
    token(26, ' expires');
    expect(shown(store).text).toBe('The office VPN certificate expires');
  });

  it('a failed read changes nothing, and the next reconnect reads again', async () => {
    let answer: Result<ChatMessageView[]> = fail(
      'SOURCE_UNREACHABLE',
      'Cairn is not reachable: is `cairn serve` still running?',
    );
    const { store, backend, token } = await streamingChat(() => answer);
    token(0, 'The office ');
    backend.reconnect();
    await settle();
    expect(shown(store)).toEqual({ text: 'The office ', status: 'streaming', cited: null });
    answer = ok(stored({ done: FINAL }));
    backend.reconnect();
    await settle();
    expect(shown(store)).toEqual({ text: FINAL, status: 'done', cited: [1] });
  });

  it('reads nothing when no answer is streaming', async () => {
    const { store, backend, token } = await streamingChat(() => ok(stored({ done: FINAL })));
    token(0, 'The office ');
    backend.emit('chat.done', storedAnswer(CONVERSATION, ANSWER_ID, FINAL));
    backend.reconnect();
    await settle();
    expect({ status: shown(store).status, reads: messageReads(backend) }).toEqual({
      status: 'done',
      reads: 0,
    });
  });
});
