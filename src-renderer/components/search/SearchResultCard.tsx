import { useId, useState } from 'react';
import type { SearchDocument, SearchHit } from '@shared/models';
import { useT } from '../../i18n/i18n';
import { KnowledgeBaseBadge, PlatformBadge } from '../common/PlatformBadge';
import { LocationLabel, OpenOriginal } from '../common/OpenOriginal';
import { Highlighted } from './Highlighted';
import { hitPreview } from './hit-preview';

function rankText(hit: SearchHit): string {
  return Object.entries(hit.ranks)
    .map(([channel, rank]) => `${channel} #${rank}`)
    .join(' · ');
}

function HeadingPath({ path }: { path: string }) {
  return path ? <p className="heading-path">{path.split(' > ').join(' › ')}</p> : null;
}

/** One document: its best passage, and its other matching passages folded under it. */
export function SearchResultCard({ document, terms }: { document: SearchDocument; terms: string[] }) {
  const t = useT();
  const { best, more } = document;
  const [expanded, setExpanded] = useState(false);
  const listId = useId();
  return (
    <article className="card hit" aria-label={best.title}>
      <header className="hit-header">
        <h3 className="hit-title">
          <Highlighted text={best.title} terms={terms} />
        </h3>
        <span className="spacer" />
        <PlatformBadge platform={best.platform} />
        <KnowledgeBaseBadge name={best.knowledgeBase} />
        {best.source === 'direct' && <span className="badge badge-live">{t('search.live')}</span>}
      </header>
      <HeadingPath path={best.headingPath} />
      <p className="hit-text">
        <Highlighted text={hitPreview(best.text, terms)} terms={terms} />
      </p>
      {expanded && (
        <ul id={listId} className="more-passages" aria-label={t('search.otherPassages')}>
          {more.map((passage) => (
            <li key={passage.key} className="more-passage">
              <HeadingPath path={passage.headingPath} />
              <p className="hit-text">
                <Highlighted text={hitPreview(passage.text, terms)} terms={terms} />
              </p>
              <span className="muted small">{rankText(passage)}</span>
            </li>
          ))}
        </ul>
      )}
      <footer className="hit-footer">
        <span className="muted small" title={t('search.why', { ranks: rankText(best) })}>
          {rankText(best)}
        </span>
        {more.length > 0 && (
          <button
            type="button"
            className="link-button more-toggle"
            aria-expanded={expanded}
            aria-controls={expanded ? listId : undefined}
            onClick={() => setExpanded(!expanded)}
          >
            {expanded
              ? t('search.hidePassages')
              : t(more.length === 1 ? 'search.morePassage' : 'search.morePassages', { count: more.length })}
          </button>
        )}
        <span className="spacer" />
        <LocationLabel location={best.location} />
        <OpenOriginal
          url={best.url}
          location={best.location}
          connectionId={best.connectionId}
          externalId={best.externalId}
        />
      </footer>
    </article>
  );
}
