import { describe, expect, it } from 'vitest';
import { cleanMarkdown, stripMarkup } from './clean-markdown';

describe('cleanMarkdown: front matter', () => {
  it('reads title, aliases, tags and summary as metadata, never as body text', () => {
    const source = [
      '---',
      'title: Raftstore Config',
      'summary: Learn how to configure Raftstore in TiKV.',
      'aliases: ["/docs/dev/raftstore/", "/docs/3.0/raftstore/"]',
      'tags: [config, raft]',
      'menu:',
      '    "7.1":',
      '        parent: Configure TiKV-7.1',
      '---',
      '',
      'You can find all the configuration parameters related to Raftstore here.',
    ].join('\n');
    const { markdown, metadata } = cleanMarkdown(source);
    expect(metadata).toEqual({
      title: 'Raftstore Config',
      summary: 'Learn how to configure Raftstore in TiKV.',
      aliases: ['/docs/dev/raftstore/', '/docs/3.0/raftstore/'],
      tags: ['config', 'raft'],
    });
    // No H1 in the body: the title becomes one, so chunks get a heading path.
    expect(markdown).toBe(
      '# Raftstore Config\n\nYou can find all the configuration parameters related to Raftstore here.',
    );
  });

  it('keeps the body H1 when there is one, reads "tags: a, b", and keeps a non-YAML rule as text', () => {
    const { markdown, metadata } = cleanMarkdown(
      '---\ntitle: 系统变量\ntags: a, b\n---\n\n# 系统变量\n\n正文',
    );
    expect(markdown).toBe('# 系统变量\n\n正文');
    expect(metadata.tags).toEqual(['a', 'b']);
    const broken = '---\ntitle: [unclosed\n---\n\ntext';
    expect(cleanMarkdown(broken)).toEqual({ markdown: broken, metadata: {} });
  });
});

describe('stripMarkup', () => {
  it('removes Hugo shortcodes, keeping the text inside paired ones', () => {
    expect(stripMarkup('{{< copyable "sql" >}}\n\n```sql\nSELECT 1;\n```')).toBe('```sql\nSELECT 1;\n```');
    expect(stripMarkup('{{< info >}}\n**Notes:** use Titan for large values.\n{{< /info >}}')).toBe(
      '**Notes:** use Titan for large values.',
    );
    expect(stripMarkup('{{< figure\n    src="/img/titan.png"\n    caption="Titan" >}}\n\nText')).toBe('Text');
  });

  it('turns template placeholders into their names and drops Liquid tags', () => {
    expect(stripMarkup('在 {{{ .starter }}} 集群上{% include note.md %}运行')).toBe('在 starter 集群上运行');
  });

  it('strips HTML to its text: headings keep their words, tag-only lines go', () => {
    expect(
      stripMarkup('### `tidb_enable_clustered_index` <span class="version-mark">从 v5.0 版本开始引入</span>'),
    ).toBe('### `tidb_enable_clustered_index` 从 v5.0 版本开始引入');
    expect(stripMarkup('<SimpleTab>\n<div label="Go">\n\nGo text\n\n</div></SimpleTab>\n\nAfter')).toBe(
      'Go text\n\nAfter',
    );
    expect(stripMarkup('<table><tr><td>分类</td><td>功能</td></tr></table>')).toBe('分类  功能');
    expect(stripMarkup('a<!-- hidden -->b')).toBe('ab');
  });

  it('leaves code exactly as written: fenced blocks and inline spans', () => {
    const code = '```html\n<div>{{< copyable "sql" >}}</div>\n```';
    expect(stripMarkup(`Text\n\n${code}`)).toBe(`Text\n\n${code}`);
    expect(stripMarkup('Write `<br>` or `{{ .x }}` literally.')).toBe(
      'Write `<br>` or `{{ .x }}` literally.',
    );
  });

  it('removes base64 data: payloads before chunking, keeping an image alt text', () => {
    const payload = 'iVBORw0KGgo'.repeat(200);
    expect(stripMarkup(`See ![架构图](data:image/png;base64,${payload}) below.`)).toBe('See 架构图 below.');
    expect(stripMarkup(`<img src="data:image/png;base64,${payload}">`)).toBe('');
    expect(stripMarkup(`raw data:application/pdf;base64,${payload} end`)).toBe('raw [data] end');
  });
});
