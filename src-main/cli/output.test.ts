import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCairn } from '../core/app/create-cairn';
import { silentLogger } from '../core/logging/logger';
import { runCli } from '../testing/run-cli';
import { CLEAR_LINE, terminalSafe, terminalStream, terminalText } from './output';

/** What a terminal would act on: ESC, BEL, CR, C1 controls and bidirectional overrides. */
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('terminal output', () => {
  it('shows control characters as escapes; text, CJK and line breaks stay', () => {
    const title = 'Q3 报告\u001b]0;pwned\u0007\r\u009b31m\u202eevil';
    expect(terminalText(title)).toBe('Q3 报告\\u001b]0;pwned\\u0007\\u000d\\u009b31m\\u202eevil');
    // Inside a line a value cannot forge another line; a whole text keeps its line breaks and tabs.
    expect(terminalText('a\nb')).toBe('a\\u000ab');
    expect(terminalSafe('a\n\tb\u001b[2J')).toBe('a\n\tb\\u001b[2J');
  });

  it('escapes what passes through a command stream, except the progress bar’s own line clear', () => {
    const writes: string[] = [];
    const raw = { isTTY: true, columns: 80, write: (chunk: string) => writes.push(chunk) > 0 };
    const stream = terminalStream(raw as unknown as NodeJS.WritableStream & { isTTY: boolean });
    stream.write(`${CLEAR_LINE}[##..] 1/2  evil\u001b[31m.md`);
    stream.write(Buffer.from('bytes \u0007 too\n'));
    expect(writes).toEqual([`${CLEAR_LINE}[##..] 1/2  evil\\u001b[31m.md`, 'bytes \\u0007 too\n']);
    expect((stream as unknown as { isTTY: boolean }).isTTY).toBe(true);
  });

  it('cairn sync, status and search print a file name full of controls escaped, and --json stays JSON', async () => {
    const notes = await mkdtemp(join(tmpdir(), 'cairn-controls-'));
    const name = 'evil\u001b]0;owned\u0007\u001b[2J.md';
    await writeFile(join(notes, name), '# Budget\u001b[31m\n\nThe quarterly budget review.\n');
    const cairn = await createCairn({ scheduler: false, env: {}, logger: silentLogger() });
    try {
      const added = await cairn.api.connections.add({
        platform: 'folder',
        name: 'notes',
        mode: 'rag',
        config: { path: notes },
        secrets: {},
      });
      expect(added.ok).toBe(true);
      const runs = [
        await runCli(['sync'], { cairn, tty: true }),
        await runCli(['status'], { cairn }),
        await runCli(['search', 'quarterly budget'], { cairn }),
      ];
      for (const run of runs) {
        // The progress bar's own CLEAR_LINE is the only sequence Cairn writes.
        const shown = run.stdout.split(CLEAR_LINE).join('') + run.stderr;
        expect(shown).not.toMatch(ACTIVE);
      }
      expect(runs[2]!.stdout).toContain('\\u001b]0;owned\\u0007');
      const json = await runCli(['search', 'quarterly budget', '--json'], { cairn });
      const parsed = JSON.parse(json.stdout) as {
        value: { documents: { best: { externalId: string } }[] };
      };
      expect(parsed.value.documents[0]!.best.externalId).toBe(name);
    } finally {
      await cairn.dispose();
      await rm(notes, { recursive: true, force: true });
    }
  }, 120_000);
});
