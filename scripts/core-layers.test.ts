import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { layerOrder, type CoreLayers } from './eslint-core-layers.js';

const root = join(import.meta.dirname, '..');

/** What eslint.config.js reports for `text` as if it were the file at `path` (up to the hint that follows). */
async function reported(path: string, text: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(text, { filePath: join(root, path) });
  return (result?.messages ?? []).map(
    (message) => `${message.ruleId}: ${message.message.split(/: it imports only| \(docs\//)[0]}`,
  );
}

describe('the order of core folders (eslint.config.js coreLayers) and the short composition root', () => {
  it('fails a file that imports against the order, and passes one that follows it', async () => {
    const longFunction = `export function probe(): number {\n${'  void 0;\n'.repeat(80)}  return 1;\n}\n`;
    // Each probe: a file's path and text, linted as if it were there.
    const probes: Record<string, [path: string, text: string]> = {
      indexImportsSync: [
        'src-main/core/index/probe.ts',
        "import { SyncEngine } from '../sync/sync-engine';\nexport const probe = SyncEngine;\n",
      ],
      typeOnlyAgainst: [
        'src-main/core/connections/probe.ts',
        "import type { SyncService } from '../sync/sync-service';\nexport type Probe = SyncService;\n",
      ],
      dynamicAgainst: [
        'src-main/core/embedding/deep/probe.ts',
        "export const probe = () => import('../../workers/worker-host');\n",
      ],
      reExportAgainst: [
        'src-main/core/search/probe.ts',
        "export { ConnectionRepository } from '../connections/connection-repository';\n",
      ],
      unlistedFolder: ['src-main/core/newfolder/probe.ts', 'export const probe = 1;\n'],
      syncImportsConnections: [
        'src-main/core/sync/probe.ts',
        "import { ConnectionRepository } from '../connections/connection-repository';\nimport { CairnError } from '../errors';\nimport { WorkerHost } from '../workers/worker-host';\nexport const probe = [ConnectionRepository, CairnError, WorkerHost];\n",
      ],
      appLongFunction: ['src-main/core/app/probe.ts', longFunction],
      longSyncEngine: [
        'src-main/core/sync/sync-engine.ts',
        `export const probe = 1;\n${'// …\n'.repeat(200)}`,
      ],
      syncLongFunction: ['src-main/core/sync/probe.ts', longFunction],
      appImportsAnything: [
        'src-main/core/app/probe.ts',
        "import { SyncService } from '../sync/sync-service';\nexport const probe = SyncService;\n",
      ],
      testUsesAFolderAbove: [
        'src-main/core/index/probe.test.ts',
        "import { HybridSearch } from '../search/hybrid-search';\nexport const probe = HybridSearch;\n",
      ],
    };
    const cases = Object.fromEntries(
      await Promise.all(
        Object.entries(probes).map(async ([name, [path, text]]) => [name, await reported(path, text)]),
      ),
    );
    expect(cases).toEqual({
      indexImportsSync: ["cairn/core-layers: core/index may not import core/sync ('../sync/sync-engine')"],
      typeOnlyAgainst: [
        "cairn/core-layers: core/connections may not import core/sync ('../sync/sync-service')",
      ],
      dynamicAgainst: [
        "cairn/core-layers: core/embedding may not import core/workers ('../../workers/worker-host')",
      ],
      reExportAgainst: [
        "cairn/core-layers: core/search may not import core/connections ('../connections/connection-repository')",
      ],
      unlistedFolder: [
        'cairn/core-layers: src-main/core/newfolder has no place in the order of core folders: add it to coreLayers in eslint.config.js with the folders it may import',
      ],
      syncImportsConnections: [],
      appLongFunction: [
        "max-lines-per-function: Function 'probe' has too many lines (83). Maximum allowed is 80.",
      ],
      syncLongFunction: [],
      longSyncEngine: ['max-lines: File has too many lines (201). Maximum allowed is 200.'],
      appImportsAnything: [],
      testUsesAFolderAbove: [],
    });
  });

  it('lists every core folder, and allows no cycle', async () => {
    const folders = readdirSync(join(root, 'src-main/core'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    const config = (await new ESLint({ cwd: root }).calculateConfigForFile(
      join(root, 'src-main/core/sync/probe.ts'),
    )) as { rules: Record<string, [unknown, { layers: CoreLayers }]> };
    const layers = config.rules['cairn/core-layers']![1].layers;
    expect(Object.keys(layers).sort()).toEqual(folders);
    const named = Object.values(layers).flatMap((below) => (below === '*' ? [] : below));
    expect(named.filter((folder) => !(folder in layers))).toEqual([]);
    const { order, cycle } = layerOrder(layers);
    expect(cycle).toBeUndefined();
    expect(order).toHaveLength(folders.length);
  });

  it('finds the cycle a table would allow', () => {
    expect(layerOrder({ a: ['b'], b: ['c'], c: ['a'], d: [] })).toEqual({ cycle: ['a', 'b', 'c', 'a'] });
  });
});
