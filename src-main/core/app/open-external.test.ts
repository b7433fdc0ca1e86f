import { describe, expect, it } from 'vitest';
import { openTargetString, resolveOpenTarget } from './open-external';

const roots = ['/home/me/notes'];

describe('resolveOpenTarget', () => {
  it('allows web links and files inside a folder connection', () => {
    expect([
      resolveOpenTarget('https://www.yuque.com/team/book/doc', roots),
      resolveOpenTarget('/home/me/notes/a/报销.md', roots),
      resolveOpenTarget('file:///home/me/notes/b.md', roots),
    ]).toEqual([
      { kind: 'url', url: 'https://www.yuque.com/team/book/doc' },
      { kind: 'path', path: '/home/me/notes/a/报销.md' },
      { kind: 'path', path: '/home/me/notes/b.md' },
    ]);
  });

  it("opens the file of a hit's section link (file.md#anchor)", () => {
    expect(resolveOpenTarget('/home/me/notes/a/guide.md#install-on-linux', roots)).toEqual({
      kind: 'path',
      path: '/home/me/notes/a/guide.md',
    });
  });

  it('refuses other schemes and paths outside the roots', () => {
    const refused = [
      'javascript:alert(1)',
      'smb://host/share',
      '/etc/passwd',
      '/home/me/notes/../secrets.txt',
      '/home/me/notes',
      'file:///home/me/notes-evil/x.md',
      'relative/path.md',
    ];
    expect(
      refused.map((link) => {
        try {
          resolveOpenTarget(link, roots);
          return 'opened';
        } catch (error) {
          return (error as { code: string }).code;
        }
      }),
    ).toEqual([
      'INVALID_ARGUMENT',
      'INVALID_ARGUMENT',
      'PERMISSION_DENIED',
      'PERMISSION_DENIED',
      'PERMISSION_DENIED',
      'PERMISSION_DENIED',
      'INVALID_ARGUMENT',
    ]);
  });

  it('opens a PDF at its page and an Obsidian note of a connected vault only', () => {
    const pdf = resolveOpenTarget('/home/me/notes/report.pdf', ['/home/me/notes']);
    expect(openTargetString(pdf, 12)).toBe('file:///home/me/notes/report.pdf#page=12');
    expect(openTargetString(resolveOpenTarget('/home/me/notes/a.md', ['/home/me/notes']), 12)).toBe(
      '/home/me/notes/a.md',
    );
    const note = resolveOpenTarget('obsidian://open?vault=My%20Vault&file=guide%2Finstall', [], ['My Vault']);
    expect(openTargetString(note)).toBe('obsidian://open?vault=My%20Vault&file=guide%2Finstall');
    const codeOf = (link: string) => {
      try {
        resolveOpenTarget(link, [], ['My Vault']);
        return 'opened';
      } catch (error) {
        return (error as { code: string }).code;
      }
    };
    expect(
      [
        'obsidian://open?vault=Other&file=x',
        'obsidian://open?vault=My%20Vault&file=..%2F..%2Fetc',
        'obsidian://new?vault=My%20Vault&file=x&content=evil',
      ].map(codeOf),
    ).toEqual(['PERMISSION_DENIED', 'INVALID_ARGUMENT', 'INVALID_ARGUMENT']);
  });
});
