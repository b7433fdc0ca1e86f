/**
 * A rehype plugin for react-markdown that wraps the query's terms in <mark> inside the rendered
 * document (text nodes only; code included, links' text included), using the same matching as the
 * result cards (search/highlight.ts), so a term lit on a card is lit in the preview too.
 */
import { splitByTerms } from '../search/highlight';

interface TextNode {
  type: 'text';
  value: string;
}
interface ElementNode {
  type: 'element';
  tagName: string;
  properties: Record<string, unknown>;
  children: HastNode[];
}
type HastNode = TextNode | ElementNode | { type: string; children?: HastNode[] };

function markChildren(parent: { children?: HastNode[] }, terms: string[]): void {
  if (!parent.children) return;
  const next: HastNode[] = [];
  for (const child of parent.children) {
    if (child.type === 'text') {
      for (const piece of splitByTerms((child as TextNode).value, terms))
        next.push(
          piece.match
            ? {
                type: 'element',
                tagName: 'mark',
                properties: {},
                children: [{ type: 'text', value: piece.text }],
              }
            : { type: 'text', value: piece.text },
        );
    } else {
      markChildren(child as { children?: HastNode[] }, terms);
      next.push(child);
    }
  }
  parent.children = next;
}

export function rehypeMarkTerms(options: { terms: string[] }) {
  return (tree: { children?: HastNode[] }) => {
    if (options.terms.length > 0) markChildren(tree, options.terms);
  };
}
