import { useMemo } from 'react';
import Markdown, { defaultUrlTransform, type Components } from 'react-markdown';
import { useApp } from '../../store/store-context';
import { MARKDOWN_PLUGINS } from '../common/markdown-plugins';
import { citationNumber, linkCitations } from './citations';

/**
 * An answer as sanitized Markdown: raw HTML is dropped (skipHtml), only safe URL schemes survive
 * (defaultUrlTransform removes javascript: and friends), images are shown as their alt text, and
 * links open through the checked openExternal path, never by navigating the app.
 */
export function AnswerBody({
  text,
  messageId,
  citations,
}: {
  text: string;
  messageId: string | null;
  citations: number[];
}) {
  const highlightSource = useApp((state) => state.highlightSource);
  const open = useApp((state) => state.openLink);
  const markdown = useMemo(() => linkCitations(text, new Set(citations)), [text, citations]);
  const components = useMemo<Components>(
    () => ({
      a({ href, children }) {
        const n = citationNumber(href);
        if (n !== null && messageId) {
          return (
            <button
              type="button"
              className="cite"
              aria-label={`[${n}]`}
              onClick={() => highlightSource(messageId, n)}
            >
              {children}
            </button>
          );
        }
        if (!href || !/^https?:\/\//i.test(href)) return <span>{children}</span>;
        return (
          <button type="button" className="link-button inline" title={href} onClick={() => void open(href)}>
            {children}
          </button>
        );
      },
      img({ alt }) {
        return <span className="muted">{alt ? `[${alt}]` : ''}</span>;
      },
    }),
    [messageId, highlightSource, open],
  );
  return (
    <div className="answer-body">
      <Markdown
        skipHtml
        urlTransform={defaultUrlTransform}
        remarkPlugins={MARKDOWN_PLUGINS}
        components={components}
      >
        {markdown}
      </Markdown>
    </div>
  );
}
