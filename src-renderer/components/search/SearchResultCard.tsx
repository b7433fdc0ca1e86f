import { useId, useState } from 'react';
import type { SearchDocument, SearchHit } from '@shared/models';
import { useT } from '../../hooks/use-t';
import { useApp } from '../../store/store-context';
import { KnowledgeBaseBadge, PlatformBadge } from '../common/PlatformBadge';
import { CopyLink } from '../common/CopyLink';
import { FreshnessLine } from '../common/FreshnessLine';
import { LocationLabel, OpenOriginal } from '../common/OpenOriginal';
import { Highlighted } from './Highlighted';
import { headingPathAt } from '@shared/heading-at';
import { headingTrail, hitPreview, passageOffset } from './hit-preview';
import { WhyThis } from './WhyThis';

/** The passage's own nearest heading path, not only the one its whole chunk shares. */
function HeadingPath({ hit, terms }: { hit: SearchHit; terms: string[] }) {
  const trail = headingTrail(
    headingPathAt(hit.text, passageOffset(hit.text, terms), hit.headingPath),
    hit.title,
  );
  return trail ? (
    <p className="heading-path">
      <Highlighted text={trail} terms={terms} />
    </p>
  ) : null;
}

function Passage({ hit, terms }: { hit: SearchHit; terms: string[] }) {
  return (
    <p className="hit-text">
      <Highlighted
        text={hitPreview(hit.text, terms, [
          hit.title,
          headingPathAt(hit.text, passageOffset(hit.text, terms), hit.headingPath),
        ])}
        terms={terms}
      />
    </p>
  );
}

function passageOf(hit: SearchHit) {
  return hit.charStart !== null && hit.charEnd !== null
    ? { charStart: hit.charStart, charEnd: hit.charEnd }
    : null;
}

/**
 * One document: its best passage, and its other matching passages folded under it. The title opens
 * the document in the preview (the passage marked), or, for a live hit with no local copy, the original.
 * Arrow keys move between titles (SearchView); Enter opens.
 */
export function SearchResultCard({ document, terms }: { document: SearchDocument; terms: string[] }) {
  const t = useT();
  const openPreview = useApp((state) => state.openPreview);
  const openOriginal = useApp((state) => state.openOriginal);
  const { best, more } = document;
  const [expanded, setExpanded] = useState(false);
  const listId = useId();
  const original = {
    url: best.url,
    documentId: best.documentId,
    title: best.title,
    passage: passageOf(best),
    terms,
    location: best.location,
    connectionId: best.connectionId,
    externalId: best.externalId,
  };
  const open = (hit: SearchHit) =>
    hit.documentId !== null
      ? void openPreview({ documentId: hit.documentId, passage: passageOf(hit), terms, title: hit.title })
      : void openOriginal(original);
  return (
    <article className="card hit" aria-label={best.title}>
      <header className="hit-header">
        <h3 className="hit-title">
          <button type="button" className="hit-open" onClick={() => open(best)}>
            <Highlighted text={best.title} terms={terms} />
          </button>
        </h3>
        <span className="spacer" />
        <PlatformBadge platform={best.platform} />
        <KnowledgeBaseBadge name={best.knowledgeBase} />
        {best.source === 'direct' && <span className="badge badge-live">{t('search.live')}</span>}
      </header>
      <HeadingPath hit={best} terms={terms} />
      <Passage hit={best} terms={terms} />
      <p className="hit-freshness">
        <FreshnessLine freshness={best.freshness} />
      </p>
      {expanded && (
        <ul id={listId} className="more-passages" aria-label={t('search.otherPassages')}>
          {more.map((passage) => (
            <li key={passage.key} className="more-passage">
              <HeadingPath hit={passage} terms={terms} />
              <Passage hit={passage} terms={terms} />
              {passage.documentId !== null && (
                <button type="button" className="link-button small" onClick={() => open(passage)}>
                  {t('search.showPassage')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <footer className="hit-footer">
        <WhyThis hit={best} terms={terms} />
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
        <CopyLink url={best.url} />
        <OpenOriginal original={original} />
      </footer>
    </article>
  );
}
