import Markdown, { defaultUrlTransform, type Components } from 'react-markdown';
import { useMemo } from 'react';
import { rehypeMarkTerms } from '../preview/mark-terms';
import { MARKDOWN_PLUGINS } from './markdown-plugins';

/**
 * A quoted passage of a source document, readable instead of raw Markdown. react-markdown (already
 * the answer renderer) builds React elements from the syntax tree, so nothing reaches the page as
 * HTML: raw HTML in a document is dropped (skipHtml) and URLs pass defaultUrlTransform. A quote is
 * not a page of its own, so headings become bold lines, links their text (the card's Open original
 * is the way out), images their alt text; code blocks stay monospace blocks without their fences.
 */
function Heading({ children }: { children?: React.ReactNode }) {
  return (
    <p className="quote-heading">
      <strong>{children}</strong>
    </p>
  );
}

const COMPONENTS: Components = {
  h1: Heading,
  h2: Heading,
  h3: Heading,
  h4: Heading,
  h5: Heading,
  h6: Heading,
  a: ({ children }) => <span className="quote-link">{children}</span>,
  img: ({ alt }) => (alt ? <span className="muted">[{alt}]</span> : null),
  hr: () => null,
  table: ({ children }) => <table className="quote-table">{children}</table>,
};

/** `terms`: words to mark (the question's), as everywhere a passage is shown. */
export function MarkdownQuote({ markdown, terms = [] }: { markdown: string; terms?: string[] }) {
  const rehypePlugins = useMemo(
    () => [[rehypeMarkTerms, { terms }] as [typeof rehypeMarkTerms, { terms: string[] }]],
    [terms],
  );
  return (
    <div className="markdown-quote">
      <Markdown
        skipHtml
        urlTransform={defaultUrlTransform}
        remarkPlugins={MARKDOWN_PLUGINS}
        rehypePlugins={rehypePlugins}
        components={COMPONENTS}
      >
        {markdown}
      </Markdown>
    </div>
  );
}
