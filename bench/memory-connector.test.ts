import { describe, expect, it } from 'vitest';
import { generateDocument } from './corpus';
import { MemoryConnector } from './memory-connector';

describe('MemoryConnector', () => {
  it('serves a generated document by regenerating it on each fetch, with the same text as held', async () => {
    const doc = generateDocument(7, { seed: 3 });
    let made = 0;
    const lazy = new MemoryConnector();
    lazy.put({
      ...doc,
      markdown: () => {
        made++;
        return generateDocument(7, { seed: 3 }).markdown;
      },
    });
    const held = new MemoryConnector();
    held.put(doc);

    const refs = [];
    for await (const listed of lazy.list()) refs.push(listed);
    const ref = refs[0];
    expect(made).toBe(0); // listing needs no text
    expect(await lazy.fetch(ref!)).toEqual(await held.fetch(ref!));
    await lazy.fetch(ref!);
    expect(made).toBe(2);
    expect(held.regenerateMs).toBe(0);
  });
});
