import { describe, expect, it } from 'vitest';
import { htmlDocument } from '../connectors/folder/extract/extract-html';
import { htmlToMarkdown, limitNesting } from './html-markdown';

/** The deepest nesting of start tags in `html` (void elements and comments aside). */
function depthOf(html: string): number {
  let depth = 0;
  let deepest = 0;
  for (const match of html.matchAll(/<(\/?)(div|span|section)\b[^>]*>/g)) {
    depth += match[1] === '/' ? -1 : 1;
    deepest = Math.max(deepest, depth);
  }
  return deepest;
}

describe('HTML nesting', () => {
  it('converts a page nested 100,000 deep with its text (it ran out of stack after minutes of CPU)', () => {
    const depth = 100_000;
    const html = `<html><body>${'<div>'.repeat(depth)}<p>deep text 深处的文字</p>${'</div>'.repeat(depth)}<p>after</p></body></html>`;
    const { markdown } = htmlDocument(html);
    expect(markdown).toContain('deep text 深处的文字');
    expect(markdown).toContain('after');
    expect(htmlToMarkdown('<section>'.repeat(5000) + 'x' + '</section>'.repeat(5000)).trim()).toBe('x');
  });

  it('drops only the tags deeper than the limit, and their end tags; text and shallow structure stay', () => {
    const html = `${'<div>'.repeat(10)}<b>bold</b>${'</div>'.repeat(10)}<p>one<p>two<br><img src="a"/>`;
    const limited = limitNesting(html, 4);
    expect(depthOf(limited)).toBe(4);
    expect(limited).toContain('bold');
    // Unclosed <p>s are siblings and void elements hold nothing: neither counts as depth.
    expect(limited.endsWith('<p>one<p>two<br><img src="a"/>')).toBe(true);
    const real = '<main><article><h1>T</h1><ul><li>a<li>b</ul></article></main>';
    expect(limitNesting(real)).toBe(real);
  });

  it('removes closed furniture and keeps the text after tags that are never closed', () => {
    const { markdown } = htmlDocument(
      `<body><nav>Home</nav><p>kept</p>${'<aside>'.repeat(50_000)}<p>after the open asides</p><footer>foot</footer></body>`,
    );
    expect(markdown).toContain('kept');
    expect(markdown).toContain('after the open asides');
    expect(markdown).not.toContain('Home');
    expect(markdown).not.toContain('foot');
  });
});
