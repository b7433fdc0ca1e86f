import type { SearchHit } from '../../../src-shared/models';
import { useT } from '../../i18n/i18n';
import { KnowledgeBaseBadge, PlatformBadge } from '../common/PlatformBadge';
import { OpenOriginal } from '../common/OpenOriginal';
import { Highlighted } from './Highlighted';
import { hitPreview } from './hit-preview';

function rankText(hit: SearchHit): string {
  return Object.entries(hit.ranks).map(([channel, rank]) => `${channel} #${rank}`).join(' · ');
}

export function SearchHitCard({ hit, terms }: { hit: SearchHit; terms: string[] }) {
  const t = useT();
  return (
    <article className="card hit" aria-label={hit.title}>
      <header className="hit-header">
        <h3 className="hit-title"><Highlighted text={hit.title} terms={terms} /></h3>
        <span className="spacer" />
        <PlatformBadge platform={hit.platform} />
        <KnowledgeBaseBadge name={hit.knowledgeBase} />
        {hit.source === 'direct' && <span className="badge badge-live">{t('search.live')}</span>}
      </header>
      {hit.headingPath && <p className="heading-path">{hit.headingPath.split(' > ').join(' › ')}</p>}
      <p className="hit-text"><Highlighted text={hitPreview(hit.text, terms)} terms={terms} /></p>
      <footer className="hit-footer">
        <span className="muted small" title={t('search.why', { ranks: rankText(hit) })}>{rankText(hit)}</span>
        <span className="spacer" />
        <OpenOriginal url={hit.url} />
      </footer>
    </article>
  );
}
