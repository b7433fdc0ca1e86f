import type { Options } from 'react-markdown';
import remarkCjkFriendly from 'remark-cjk-friendly';
import remarkGfm from 'remark-gfm';

/**
 * The Markdown dialect of answers and quoted sources. Platform exports are GitHub-flavoured (tables,
 * strikethrough, task lists), which react-markdown's CommonMark alone shows as raw pipes; and
 * CommonMark's emphasis rules leave `**“发票”**。` literal next to CJK punctuation, which
 * remark-cjk-friendly fixes (https://github.com/tats-u/markdown-cjk-friendly).
 */
export const MARKDOWN_PLUGINS: NonNullable<Options['remarkPlugins']> = [remarkGfm, remarkCjkFriendly];
