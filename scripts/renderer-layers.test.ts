import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

/** The rules eslint.config.js reports for `text` as if it were the file at `path`. */
async function brokenRules(path: string, text: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(text, { filePath: join(root, path) });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message.split(':')[0]}`);
}

describe('renderer layers (eslint.config.js)', () => {
  it('keep i18n pure and the store free of views, and let views use both', async () => {
    const cases = {
      i18nReadsStore: await brokenRules(
        'src-renderer/i18n/probe.ts',
        "import { useApp } from '../store/store-context';\nexport const probe = useApp;\n",
      ),
      i18nUsesReact: await brokenRules(
        'src-renderer/i18n/probe.ts',
        "import { useCallback } from 'react';\nexport const probe = useCallback;\n",
      ),
      storeImportsComponent: await brokenRules(
        'src-renderer/store/slices/probe.ts',
        "import { FilterBar } from '../../components/search/FilterBar';\nexport const probe = FilterBar;\n",
      ),
      componentUsesBoth: await brokenRules(
        'src-renderer/components/search/Probe.tsx',
        "import { translate } from '../../i18n/i18n';\nimport { useApp } from '../../store/store-context';\nexport const probe = [translate, useApp];\n",
      ),
      storeStillBansNode: await brokenRules(
        'src-renderer/store/probe.ts',
        "import { readFileSync } from 'node:fs';\nexport const probe = readFileSync;\n",
      ),
    };
    expect(cases).toEqual({
      i18nReadsStore: [
        "no-restricted-imports: '../store/store-context' import is restricted from being used by a pattern. i18n depends on no other renderer folder.",
      ],
      i18nUsesReact: ["no-restricted-imports: 'react' import is restricted from being used. i18n is pure"],
      storeImportsComponent: [
        "no-restricted-imports: '../../components/search/FilterBar' import is restricted from being used by a pattern. The store does not import views or their hooks.",
      ],
      componentUsesBoth: [],
      storeStillBansNode: ["no-restricted-imports: 'node"],
    });
  });
});
