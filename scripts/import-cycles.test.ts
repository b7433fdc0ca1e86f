import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCycles } from './import-cycles';

const root = join(import.meta.dirname, '..');

describe('import cycles', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'cairn-cycles-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('are found through value imports and re-exports, not through type-only ones', () => {
    mkdirSync(join(scratch, 'src'));
    const files: Record<string, string> = {
      'a.ts': "import { b } from './b';\nexport const a = b;",
      'b.ts': "export { c as b } from './c';",
      'c.ts': "import { a } from './a';\nexport const c = 1; void a;",
      'd.ts': "import type { E } from './e';\nexport type D = E;",
      'e.ts': "import { type D } from './d';\nexport type E = D | 1;",
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(scratch, 'src', name), text);
    expect(importCycles(scratch, ['src'])).toEqual([['src/a.ts', 'src/b.ts', 'src/c.ts']]);
  });

  it('none in the renderer, the shared contract, the preload or main (type-only ones aside)', () => {
    expect(importCycles(root, ['src-renderer', 'src-shared', 'src-preload', 'src-main'])).toEqual([]);
  });

  it('type-only: the ones docs/DESIGN.md lists, and no others', () => {
    const slices = readdirSync(join(root, 'src-renderer/store/slices'))
      .filter((name) => name.endsWith('-slice.ts'))
      .map((name) => `src-renderer/store/slices/${name}`);
    const withTypes = importCycles(root, ['src-renderer', 'src-shared', 'src-preload', 'src-main'], true);
    expect(withTypes).toEqual([
      [
        'src-main/core/connectors/folder/folder-connector.ts',
        'src-main/core/connectors/folder/folder-search.ts',
      ],
      ['src-main/core/models/catalog-entries.ts', 'src-main/core/models/catalog.ts'],
      ['src-main/core/search/explain-document.ts', 'src-main/core/search/hybrid-search.ts'],
      ['src-renderer/store/selectors.ts', ...slices, 'src-renderer/store/store-types.ts'].sort(),
      ['src-renderer/transport/http-transport.ts', 'src-renderer/transport/transport.ts'],
    ]);
  });
});
