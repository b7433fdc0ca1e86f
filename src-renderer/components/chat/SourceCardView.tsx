import { useEffect, useRef } from 'react';
import type { SourceCard } from '@shared/models';
import { useT } from '../../hooks/use-t';
import { useApp } from '../../store/store-context';
import { CopyLink } from '../common/CopyLink';
import { FreshnessLine } from '../common/FreshnessLine';
import { MarkdownQuote } from '../common/MarkdownQuote';
import { LocationLabel, OpenOriginal } from '../common/OpenOriginal';
import { KnowledgeBaseBadge, PlatformBadge } from '../common/PlatformBadge';
import { Highlighted } from '../search/Highlighted';
import { headingTrail } from '../search/hit-preview';

/**
 * A cited source: the quoted paragraph (the question's words marked), and its title, which opens
 * the document in the preview with that paragraph marked.
 */
export function SourceCardView({
  source,
  messageId,
  terms,
}: {
  source: SourceCard;
  messageId: string;
  terms: string[];
}) {
  const t = useT();
  const highlighted = useApp(
    (state) => state.highlighted?.messageId === messageId && state.highlighted.n === source.n,
  );
  const highlightRequest = useApp((state) => state.highlighted);
  const openPreview = useApp((state) => state.openPreview);
  const element = useRef<HTMLElement>(null);
  useEffect(() => {
    // jsdom has no scrollIntoView; browsers and Electron do.
    if (highlighted) element.current?.scrollIntoView?.({ behavior: 'smooth', block: 'center' });
  }, [highlighted, highlightRequest]);
  const passage =
    source.charStart !== null && source.charEnd !== null
      ? { charStart: source.charStart, charEnd: source.charEnd }
      : null;
  const show = () =>
    source.documentId !== null &&
    void openPreview({ documentId: source.documentId, passage, terms, title: source.title });
  const trail = headingTrail(source.headingPath, source.title);
  return (
    <article
      ref={element}
      id={`source-${messageId}-${source.n}`}
      className={highlighted ? 'card source-card highlighted' : 'card source-card'}
      aria-label={`[${source.n}] ${source.title}`}
      aria-current={highlighted ? 'true' : undefined}
    >
      <header className="source-header">
        <span className="source-n" aria-hidden="true">
          {source.n}
        </span>
        <h4 className="source-title">
          {source.documentId !== null ? (
            <button type="button" className="hit-open" onClick={show}>
              <Highlighted text={source.title} terms={terms} />
            </button>
          ) : (
            <Highlighted text={source.title} terms={terms} />
          )}
        </h4>
        <span className="spacer" />
        <PlatformBadge platform={source.platform} />
        <KnowledgeBaseBadge name={source.knowledgeBase} />
      </header>
      {trail && (
        <p className="heading-path">
          <Highlighted text={trail} terms={terms} />
        </p>
      )}
      <blockquote className="source-paragraph">
        <MarkdownQuote markdown={source.paragraph} terms={terms} />
      </blockquote>
      <p className="hit-freshness">
        <FreshnessLine freshness={source.freshness} />
      </p>
      <footer className="hit-footer">
        {source.documentId !== null && (
          <button type="button" className="link-button" onClick={show}>
            {t('chat.showInDocument')}
          </button>
        )}
        <span className="spacer" />
        <LocationLabel location={source.location} />
        <CopyLink url={source.url} />
        <OpenOriginal
          original={{
            url: source.url,
            documentId: source.documentId,
            title: source.title,
            passage,
            terms,
            location: source.location,
            connectionId: source.connectionId,
            externalId: source.externalId,
          }}
        />
      </footer>
    </article>
  );
}
