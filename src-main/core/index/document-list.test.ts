import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCairn, type CairnInternals } from '../app/create-cairn';
import { silentLogger } from '../logging/logger';
import { syncToEnd, unwrap } from '../../testing/integration-kit';

let scratch: string;
let cairn: CairnInternals;
const ids: Record<string, string> = {};

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'cairn-doc-list-'));
  cairn = await createCairn({ scheduler: false, env: {}, logger: silentLogger() });
  for (const [name, files] of [
    ['wiki', ['a.md', 'b.md', 'c.md']],
    ['笔记', ['报销.md']],
  ] as const) {
    const folder = join(scratch, name);
    mkdirSync(folder, { recursive: true });
    for (const file of files) writeFileSync(join(folder, file), `# ${file}\n\nText of ${file}.\n`);
    ids[name] = unwrap(
      await cairn.api.connections.add({
        platform: 'folder',
        name,
        mode: 'rag',
        config: { path: folder },
        secrets: {},
      }),
    ).id;
    await syncToEnd(cairn, ids[name]!);
  }
}, 300_000);

afterAll(async () => {
  await cairn.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

describe('documents.list', () => {
  it("pages through one connection's documents, or all, without their text, in a stable order", async () => {
    const wiki = ids['wiki']!;
    const first = unwrap(await cairn.api.documents.list({ connectionId: wiki, limit: 2 }));
    const second = unwrap(await cairn.api.documents.list({ connectionId: wiki, limit: 2, offset: 2 }));
    const all = unwrap(await cairn.api.documents.list({}));
    expect({
      first: [first.total, first.documents.map((d) => d.externalId)],
      second: [second.total, second.documents.map((d) => d.externalId)],
      all: [all.total, all.documents.map((d) => [d.connectionId, d.title, d.chunkCount, 'markdown' in d])],
      unknown: unwrap(await cairn.api.documents.list({ connectionId: 'nope' })),
    }).toEqual({
      first: [3, ['a.md', 'b.md']],
      second: [3, ['c.md']],
      all: [
        4,
        [
          ...['a.md', 'b.md', 'c.md'].map((file) => [wiki, file, 1, false]),
          [ids['笔记'], '报销.md', 1, false],
        ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      ],
      unknown: { documents: [], total: 0 },
    });
  });
});
