import { useState } from 'react';
import { formatNumber } from '../../i18n/i18n';
import { useLanguage, useT } from '../../hooks/use-t';
import { useApp } from '../../store/store-context';
import { QuestionSuggestions, SearchSuggestions, useTopics } from '../search/Suggestions';

const KEY = 'cairn.readyPanelDone';

function seen(): boolean {
  try {
    return globalThis.localStorage?.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

function markSeen(): void {
  try {
    globalThis.localStorage?.setItem(KEY, '1');
  } catch {
    // A profile without storage shows the panel again next time: harmless.
  }
}

/**
 * After the first sync: a search to try and questions to ask, made from the user's own headings.
 * Shown until the user takes one or dismisses it (kept in this browser profile / app window).
 */
export function ReadyPanel() {
  const t = useT();
  const language = useLanguage();
  const topics = useTopics();
  const indexed = useApp((state) =>
    state.connections.reduce((sum, connection) => sum + connection.documentCount, 0),
  );
  const [done, setDone] = useState(seen);
  if (done || topics.length === 0) return null;
  const finish = () => {
    markSeen();
    setDone(true);
  };
  return (
    <section
      className="panel ready-panel"
      aria-labelledby="ready-title"
      onClickCapture={(event) => {
        if ((event.target as HTMLElement).closest('.chip')) finish();
      }}
    >
      <h2 id="ready-title">{t('suggest.readyTitle')}</h2>
      <p className="muted">
        {t(indexed === 1 ? 'suggest.readyBodyOne' : 'suggest.readyBody', {
          count: formatNumber(language, indexed),
        })}
      </p>
      <SearchSuggestions topics={topics} />
      <QuestionSuggestions topics={topics} />
      <div className="actions">
        <button type="button" className="button quiet" onClick={finish}>
          {t('suggest.dismiss')}
        </button>
      </div>
    </section>
  );
}
