import { useEffect, useRef } from 'react';
import type { SourceCard } from '@shared/models';
import { useApp } from '../../store/store-context';
import { MarkdownQuote } from '../common/MarkdownQuote';
import { LocationLabel, OpenOriginal } from '../common/OpenOriginal';
import { KnowledgeBaseBadge, PlatformBadge } from '../common/PlatformBadge';

export function SourceCardView({ source, messageId }: { source: SourceCard; messageId: string }) {
  const highlighted = useApp(
    (state) => state.highlighted?.messageId === messageId && state.highlighted.n === source.n,
  );
  const highlightRequest = useApp((state) => state.highlighted);
  const element = useRef<HTMLElement>(null);
  useEffect(() => {
    // jsdom has no scrollIntoView; browsers and Electron do.
    if (highlighted) element.current?.scrollIntoView?.({ behavior: 'smooth', block: 'center' });
  }, [highlighted, highlightRequest]);
  return (
    <article
      ref={element}
      id={`source-${messageId}-${source.n}`}
      className={highlighted ? 'card source-card highlighted' : 'card source-card'}
      aria-label={`[${source.n}] ${source.title}`}
      aria-current={highlighted ? 'true' : undefined}
    >
      <header className="source-header">
        <span className="source-n">{source.n}</span>
        <h4 className="source-title">{source.title}</h4>
        <span className="spacer" />
        <PlatformBadge platform={source.platform} />
        <KnowledgeBaseBadge name={source.knowledgeBase} />
      </header>
      {source.headingPath && <p className="heading-path">{source.headingPath.split(' > ').join(' › ')}</p>}
      <blockquote className="source-paragraph">
        <MarkdownQuote markdown={source.paragraph} />
      </blockquote>
      <footer className="hit-footer">
        <LocationLabel location={source.location} />
        <span className="spacer" />
        <OpenOriginal
          url={source.url}
          location={source.location}
          connectionId={source.connectionId}
          externalId={source.externalId}
        />
      </footer>
    </article>
  );
}
