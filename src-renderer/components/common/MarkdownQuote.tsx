import Markdown, { defaultUrlTransform, type Components } from 'react-markdown';
import { splitPipeTables } from './pipe-tables';

/**
 * A quoted passage of a source document, readable instead of raw Markdown. react-markdown (already
 * the answer renderer) builds React elements from the syntax tree, so nothing reaches the page as
 * HTML: raw HTML in a document is dropped (skipHtml) and URLs pass defaultUrlTransform. A quote is
 * not a page of its own, so headings become bold lines, links their text (the card's Open original
 * is the way out), images their alt text; code blocks stay monospace blocks without their fences.
 */
function Heading({ children }: { children?: React.ReactNode }) {
  return <p className="quote-heading"><strong>{children}</strong></p>;
}

const BLOCK_COMPONENTS: Components = {
  h1: Heading, h2: Heading, h3: Heading, h4: Heading, h5: Heading, h6: Heading,
  a: ({ children }) => <span className="quote-link">{children}</span>,
  img: ({ alt }) => (alt ? <span className="muted">[{alt}]</span> : null),
  hr: () => null,
};

/** Inside a table cell a paragraph is just its inline content. */
const CELL_COMPONENTS: Components = { ...BLOCK_COMPONENTS, p: ({ children }) => <>{children}</> };

function QuoteMarkdown({ text, components }: { text: string; components: Components }) {
  return <Markdown skipHtml urlTransform={defaultUrlTransform} components={components}>{text}</Markdown>;
}

export function MarkdownQuote({ markdown }: { markdown: string }) {
  return (
    <div className="markdown-quote">
      {splitPipeTables(markdown).map((block, index) =>
        block.kind === 'markdown' ? (
          <QuoteMarkdown key={index} text={block.text} components={BLOCK_COMPONENTS} />
        ) : (
          <table key={index} className="quote-table">
            <thead><tr>{block.header.map((cell, column) => <th key={column}><QuoteMarkdown text={cell} components={CELL_COMPONENTS} /></th>)}</tr></thead>
            <tbody>
              {block.rows.map((row, rowIndex) => (
                <tr key={rowIndex}>{block.header.map((_header, column) => <td key={column}><QuoteMarkdown text={row[column] ?? ''} components={CELL_COMPONENTS} /></td>)}</tr>
              ))}
            </tbody>
          </table>
        ),
      )}
    </div>
  );
}
