import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiServer, type FakeOpenAiServer } from './fake-openai-server';

let fake: FakeOpenAiServer;
beforeAll(async () => {
  fake = await startFakeOpenAiServer({ apiKey: 'sk-fake-test-key' });
});
afterAll(() => fake.close());

const SOURCES =
  'Numbered sources follow.\n<sources>\n<source n="1" title="A">\nCats sleep a lot. Dogs bark.\n</source>\n<source n="2" title="B">\nThe moon is far.\n</source>\n</sources>\n\nQuestion: Do cats sleep?';

function post(body: unknown, key = 'sk-fake-test-key') {
  return fetch(`${fake.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('fake OpenAI server', () => {
  it('streams chat.completion.chunk events, a usage chunk, then [DONE], as the real API does', async () => {
    const response = await post({
      model: 'fake-chat',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: SOURCES }],
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await response.text()).split('\n\n').filter(Boolean);
    expect(events.every((e) => e.startsWith('data: '))).toBe(true);
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(0, -1).map(
      (e) =>
        JSON.parse(e.slice(6)) as {
          object: string;
          choices: { delta: { content?: string; role?: string }; finish_reason: string | null }[];
          usage: unknown;
        },
    );
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks[0]!.choices[0]!.delta).toEqual({ role: 'assistant', content: '', refusal: null });
    expect(chunks.at(-2)!.choices).toEqual([{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }]);
    const usageChunk = chunks.at(-1)!;
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage).toMatchObject({
      prompt_tokens: expect.any(Number),
      completion_tokens: expect.any(Number),
    });
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    expect(text).toBe('Cats sleep a lot [1]. The moon is far [2].');
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
  });

  it('answers without streaming, and without a usage chunk when not asked', async () => {
    const plain = (await (
      await post({ model: 'fake-chat', messages: [{ role: 'user', content: SOURCES }] })
    ).json()) as { object: string; choices: { message: { content: string } }[] };
    expect(plain.object).toBe('chat.completion');
    expect(plain.choices[0]!.message.content).toBe('Cats sleep a lot [1]. The moon is far [2].');
    const streamed = await (
      await post({ model: 'fake-chat', stream: true, messages: [{ role: 'user', content: SOURCES }] })
    ).text();
    expect(streamed).not.toContain('"usage"');
  });

  it('rejects a wrong key and an unknown model with OpenAI error bodies', async () => {
    const unauthorised = await post({ model: 'fake-chat', messages: [] }, 'sk-wrong');
    expect(unauthorised.status).toBe(401);
    expect(await unauthorised.json()).toMatchObject({
      error: { type: 'invalid_request_error', code: 'invalid_api_key' },
    });
    const missing = await post({ model: 'nope', messages: [] });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 'model_not_found' } });
    expect(fake.requests.map((r) => r.body?.model)).toContain('nope');
  });
});
