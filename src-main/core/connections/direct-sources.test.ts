import { unwrap } from '../../testing/integration-kit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../logging/logger';
import { MemoryConnector } from '../../testing/index-fixtures';
import { createCairn, type CairnInternals } from '../app/create-cairn';

let cairn: CairnInternals;
const built: MemoryConnector[] = [];
let disposed = 0;

beforeAll(async () => {
  cairn = await createCairn({
    scheduler: false,
    env: {},
    logger: silentLogger(),
    factories: {
      folder: () => {
        const connector = Object.assign(new MemoryConnector(), { dispose: () => void (disposed += 1) });
        connector.put('live-1', '# Live\n\nThe quarterly budget, live from the platform.');
        built.push(connector);
        return connector;
      },
    },
  });
});

afterAll(async () => {
  await cairn.dispose();
});

describe('direct-mode sources as wired by createCairn', () => {
  it('keep one connector per connection across searches (no sign-in per keystroke), and let it go when the mode changes', async () => {
    const live = unwrap(
      await cairn.api.connections.add({
        platform: 'folder',
        name: 'live',
        mode: 'direct',
        config: { path: '/tmp/live' },
        secrets: {},
      }),
    );
    for (const query of ['quarterly', 'quarterly budget', 'budget']) {
      const hits = unwrap(await cairn.api.search.query({ query })).hits;
      expect(hits.map((hit) => [hit.source, hit.externalId])).toEqual([['direct', 'live-1']]);
    }
    expect({ built: built.length, disposed }).toEqual({ built: 1, disposed: 0 });
    unwrap(await cairn.api.connections.setMode({ id: live.id, mode: 'rag' }));
    await vi.waitFor(() => expect(disposed).toBe(1));
  });
});
