import { useId, useState } from 'react';
import type { ChannelStanding, DocumentExplanation, ExplainReason } from '@shared/models';
import { hasMessage, type Translate } from '../../i18n/i18n';
import { useT } from '../../hooks/use-t';
import { useApp } from '../../store/store-context';
import { ErrorMessage } from '../common/ErrorMessage';
import { Highlighted } from './Highlighted';
import { highlightTerms } from './highlight';
import { headingTrail, hitPreview } from './hit-preview';

const FILTER_NAMES = {
  connection: 'filters.connection',
  platform: 'filters.platform',
  knowledgeBase: 'filters.kb',
  tag: 'filters.tag',
  modified: 'filters.modified',
} as const;

/** One stage that held the document back, in the UI language (core's CLI/MCP sentences are English). */
export function reasonText(reason: ExplainReason, t: Translate): string {
  switch (reason.kind) {
    case 'connection-live':
      return t('whyNot.reason.connection-live', { name: reason.connectionName });
    case 'filter':
      return t('whyNot.reason.filter', { filter: t(FILTER_NAMES[reason.filter]), value: reason.value });
    case 'keyword-depth':
    case 'vector-depth':
      return t(`whyNot.reason.${reason.kind}`, { depth: reason.depth });
    case 'no-vector':
      return t(`whyNot.reason.no-vector.${reason.why}`);
    case 'similarity-floor':
      return t('whyNot.reason.similarity-floor', {
        similarity: reason.similarity.toFixed(3),
        floor: reason.floor.toFixed(3),
      });
    case 'excluded':
      return t('whyNot.reason.excluded', { word: reason.word });
    case 'phrase-missing':
      return t('whyNot.reason.phrase-missing', { phrase: reason.phrase });
    case 'per-document-cap':
      return t('whyNot.reason.per-document-cap', { dropped: reason.dropped, max: reason.max });
    case 'top-k':
      return t('whyNot.reason.top-k', { rank: reason.rank, total: reason.total, k: reason.k });
    default: {
      const key = `whyNot.reason.${reason.kind}`;
      return hasMessage(key) ? t(key) : reason.kind;
    }
  }
}

function Standing({
  standing,
  scoreKey,
  digits,
  noScoreKey,
}: {
  standing: ChannelStanding;
  scoreKey: 'whyNot.bm25' | 'whyNot.similarity';
  digits: number;
  noScoreKey: 'whyNot.noScore' | 'whyNot.noSimilarity';
}) {
  const t = useT();
  const place =
    standing.rank !== null
      ? t('whyNot.rank', { rank: standing.rank, depth: standing.depth })
      : t('whyNot.notCandidate', { depth: standing.depth });
  const score =
    standing.score !== null
      ? t(scoreKey, {
          score: standing.score.toFixed(digits),
          last: standing.lastKeptScore === null ? '—' : standing.lastKeptScore.toFixed(digits),
        })
      : t(noScoreKey);
  return (
    <>
      {place} · {score}
    </>
  );
}

function Explanation({ explanation }: { explanation: DocumentExplanation }) {
  const t = useT();
  const openPreview = useApp((state) => state.openPreview);
  const { document, outcome, words, keyword, vector, reasons, bestPassage } = explanation;
  const terms = highlightTerms(explanation.query);
  const trail = bestPassage ? headingTrail(bestPassage.headingPath, document.title) : null;
  const verdict =
    outcome === 'shown'
      ? t('whyNot.shown', {
          title: document.title,
          rank: explanation.shownRank ?? 0,
          k: explanation.k,
          query: explanation.query,
        })
      : outcome === 'ranked-lower'
        ? t('whyNot.rankedLower', {
            title: document.title,
            rank: explanation.rank ?? 0,
            total: reasons.find((reason) => reason.kind === 'top-k')?.total ?? explanation.rank ?? 0,
            k: explanation.k,
            query: explanation.query,
          })
        : t('whyNot.notFound', { title: document.title, query: explanation.query });
  return (
    <div className={`why-not-result why-not-${outcome}`}>
      <p className="why-not-verdict">{verdict}</p>
      {reasons.length > 0 && (
        <>
          <h4>{t('whyNot.reasons')}</h4>
          <ul className="why-not-reasons">
            {reasons.map((reason, index) => (
              <li key={index}>{reasonText(reason, t)}</li>
            ))}
          </ul>
        </>
      )}
      {words.length > 0 && (
        <>
          <h4>{t('whyNot.words')}</h4>
          <ul className="why-not-words">
            {words.map((word) => (
              <li key={word.word} className={word.found ? 'word-found' : 'word-missing'}>
                <span className="word-mark" aria-hidden="true">
                  {word.found ? '✓' : '✗'}
                </span>
                <span>
                  {word.typed ? t('whyNot.typedAs', { word: word.word, typed: word.typed }) : word.word}
                </span>
                <span className="visually-hidden">
                  {' '}
                  {word.found ? t('whyNot.wordFound') : t('whyNot.wordMissing')}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
      <h4>{t('whyNot.channels')}</h4>
      <dl className="why-not-channels">
        <dt>{t('whyNot.keyword')}</dt>
        <dd>
          <Standing standing={keyword} scoreKey="whyNot.bm25" digits={2} noScoreKey="whyNot.noScore" />
        </dd>
        <dt>{t('whyNot.vector')}</dt>
        <dd>
          {vector.ran ? (
            <Standing
              standing={vector}
              scoreKey="whyNot.similarity"
              digits={3}
              noScoreKey="whyNot.noSimilarity"
            />
          ) : (
            t('whyNot.vectorOff')
          )}
        </dd>
      </dl>
      <h4>{t('whyNot.bestPassage')}</h4>
      {bestPassage ? (
        <div className="why-not-passage">
          {trail && (
            <p className="heading-path">
              <Highlighted text={trail} terms={terms} />
            </p>
          )}
          <p className="hit-text">
            <Highlighted
              text={hitPreview(bestPassage.text, terms, [document.title, bestPassage.headingPath])}
              terms={terms}
            />
          </p>
          <button
            type="button"
            className="link-button small"
            onClick={() =>
              void openPreview({
                documentId: document.id,
                passage: { charStart: bestPassage.charStart, charEnd: bestPassage.charEnd },
                terms,
                title: document.title,
              })
            }
          >
            {t('search.showPassage')}
          </button>
        </div>
      ) : (
        <p className="muted">{t('whyNot.noPassage')}</p>
      )}
    </div>
  );
}

/**
 * "Why not this document?" under the results: a type-ahead over indexed titles (a combobox with
 * its listbox, arrow keys and Enter), then what the search did with the chosen document: where it
 * stood on words and in meaning, which search words it holds, the filter, floor or cut that held
 * it back, and its best passage. It follows the results: a new search asks again.
 */
export function WhyNot() {
  const t = useT();
  const open = useApp((state) => state.whyNotOpen);
  const whyNot = useApp((state) => state.whyNot);
  const matches = useApp((state) => state.titleMatches);
  const openWhyNot = useApp((state) => state.openWhyNot);
  const closeWhyNot = useApp((state) => state.closeWhyNot);
  const findTitles = useApp((state) => state.findTitles);
  const explainDocument = useApp((state) => state.explainDocument);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const [listOpen, setListOpen] = useState(false);
  const headingId = useId();
  const inputId = useId();
  const listId = useId();
  if (!open)
    return (
      <p className="why-not-entry">
        <button type="button" className="link-button" onClick={openWhyNot}>
          {t('whyNot.open')}
        </button>
      </p>
    );
  const choose = (index: number) => {
    const chosen = matches[index];
    if (!chosen) return;
    setText(chosen.title);
    setListOpen(false);
    void explainDocument(chosen.id, chosen.title);
  };
  const close = () => {
    setText('');
    setListOpen(false);
    closeWhyNot();
  };
  const expanded = listOpen && text.trim() !== '';
  return (
    <section className="card why-not" aria-labelledby={headingId}>
      <header className="why-not-header">
        <h3 id={headingId}>{t('whyNot.title')}</h3>
        <span className="spacer" />
        <button type="button" className="link-button small" onClick={close}>
          {t('common.close')}
        </button>
      </header>
      <p className="muted">{t('whyNot.intro')}</p>
      <div className="why-not-picker">
        <label htmlFor={inputId}>{t('whyNot.document')}</label>
        <input
          id={inputId}
          type="text"
          role="combobox"
          autoComplete="off"
          autoFocus
          placeholder={t('whyNot.placeholder')}
          aria-expanded={expanded && matches.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={expanded && matches[active] ? `${listId}-${active}` : undefined}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setActive(0);
            setListOpen(true);
            void findTitles(event.target.value);
          }}
          onKeyDown={(event) => {
            if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
              event.preventDefault();
              setListOpen(true);
              const step = event.key === 'ArrowDown' ? 1 : -1;
              setActive((at) => Math.min(Math.max(at + step, 0), Math.max(matches.length - 1, 0)));
            } else if (event.key === 'Enter') {
              event.preventDefault();
              if (expanded) choose(active);
            } else if (event.key === 'Escape') {
              event.stopPropagation();
              if (expanded) setListOpen(false);
              else close();
            }
          }}
        />
        <ul
          id={listId}
          role="listbox"
          aria-label={t('whyNot.document')}
          className="why-not-options"
          hidden={!expanded || matches.length === 0}
        >
          {matches.map((match, index) => (
            <li
              key={match.id}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              className={index === active ? 'active' : undefined}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(index)}
            >
              <span className="why-not-option-title">{match.title}</span>
              {match.knowledgeBase && <span className="muted"> · {match.knowledgeBase}</span>}
            </li>
          ))}
        </ul>
        {expanded && matches.length === 0 && !whyNot && <p className="muted">{t('whyNot.noTitles')}</p>}
      </div>
      {whyNot?.status === 'loading' && (
        <p className="muted" aria-live="polite">
          {t('whyNot.loading')}
        </p>
      )}
      {whyNot?.status === 'failed' && whyNot.error && (
        <p className="form-error" role="alert">
          <ErrorMessage error={whyNot.error} lead={t('whyNot.failed')} />
        </p>
      )}
      {whyNot?.status === 'ready' && whyNot.explanation && (
        <div aria-live="polite">
          <Explanation explanation={whyNot.explanation} />
        </div>
      )}
    </section>
  );
}
