import { describe, expect, it } from 'vitest';
import { createLogger, droppedLogLines, SecretRedactor } from './logger';

describe('the redacting logger', () => {
  it('redacts a registered secret however a log line spells it: raw, JSON-escaped or URL-encoded', () => {
    const secret = 'pa"ss\\wörd/42&x';
    const redactor = new SecretRedactor();
    redactor.register(secret);
    const lines: string[] = [];
    const logger = createLogger({ redactor, sink: (line) => lines.push(line) });
    logger.warn(`login failed for ${secret}`, {
      body: { pass: secret },
      url: `https://h.test/cb?p=${encodeURIComponent(secret)}`,
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('ss\\\\w');
    expect(lines[0]).not.toContain(encodeURIComponent(secret));
    expect(lines[0]).not.toContain('wörd');
    expect(lines[0]?.match(/\[redacted\]/g)).toHaveLength(3);
  });

  it('never throws when its file cannot be written (a full disk): it counts the lost lines and says so once it can write again', () => {
    const written: string[] = [];
    let diskFull = true;
    const logger = createLogger({
      sink: (line) => {
        if (diskFull)
          throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        written.push(line);
      },
    }).child('sync');
    const before = droppedLogLines();
    expect(() => {
      logger.error('sync failed', { error: new Error('Disk full') });
      logger.warn('still full');
    }).not.toThrow();
    diskFull = false;
    logger.info('space again');
    expect({
      dropped: droppedLogLines() - before,
      lines: written.map((line) => line.replace(/^\S+ /, '')),
    }).toEqual({
      dropped: 2,
      lines: ['WARN [logger] 2 log line(s) could not be written (ENOSPC)', 'INFO [cairn:sync] space again'],
    });
  });
});

describe('the default logger (standard error)', () => {
  it('survives standard error on a full disk (/dev/full): no uncaught ENOSPC, the process goes on', async () => {
    const { spawn } = await import('node:child_process');
    const { openSync, closeSync } = await import('node:fs');
    const { fileURLToPath } = await import('node:url');
    const logger = fileURLToPath(new URL('./logger.ts', import.meta.url));
    const full = openSync('/dev/full', 'w');
    const script = `
      const { createLogger, droppedLogLines } = await import(${JSON.stringify(logger)});
      const log = createLogger();
      for (let i = 0; i < 3; i++) log.warn('a line the disk has no room for ' + 'x'.repeat(5000));
      setTimeout(() => process.stdout.write('alive, dropped ' + droppedLogLines()), 50);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', full],
    });
    closeSync(full);
    let stdout = '';
    child.stdout!.on('data', (part: Buffer) => (stdout += part.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect({ code, stdout }).toEqual({ code: 0, stdout: 'alive, dropped 3' });
  }, 60_000);
});
