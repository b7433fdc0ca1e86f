import { describe, expect, it } from 'vitest';
import { createLogger, SecretRedactor } from './logger';

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
});
