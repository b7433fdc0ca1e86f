import { useEffect } from 'react';
import type { DocumentTopic } from '@shared/models';
import { useLanguage, useT } from '../../hooks/use-t';
import { translate, type Language } from '../../i18n/i18n';
import { useApp } from '../../store/store-context';

/**
 * Headings from the user's own documents, loaded again whenever the number of indexed documents
 * changes (a sync finished): what the empty Search and Ask views and the first-sync panel offer.
 */
export function useTopics(): DocumentTopic[] {
  const topics = useApp((state) => state.topics);
  const loadTopics = useApp((state) => state.loadTopics);
  const indexed = useApp((state) =>
    state.connections.reduce((sum, connection) => sum + connection.documentCount, 0),
  );
  useEffect(() => {
    if (indexed > 0) void loadTopics();
  }, [indexed, loadTopics]);
  return indexed > 0 ? topics : [];
}

/** A search to try: clicking one fills the search box and shows its results. */
export function SearchSuggestions({ topics }: { topics: DocumentTopic[] }) {
  const t = useT();
  const setQuery = useApp((state) => state.setQuery);
  const setView = useApp((state) => state.setView);
  if (topics.length === 0) return null;
  return (
    <div className="suggestions" role="group" aria-label={t('suggest.searches')}>
      <span className="suggestions-label">{t('suggest.searches')}</span>
      {topics.slice(0, 3).map((topic) => (
        <button
          key={topic.text}
          type="button"
          className="chip"
          title={t('suggest.from', { title: topic.title })}
          onClick={() => {
            setView('search');
            setQuery(topic.text);
          }}
        >
          {topic.text}
        </button>
      ))}
    </div>
  );
}

/**
 * The language a question about a heading is asked in: a Chinese heading makes a Chinese question
 * whatever the UI language ('What do my documents say about “提交报销单”?' reads as two languages);
 * any other heading is asked in the UI language (文档里关于「VPN setup」 is how Chinese readers write).
 */
export function questionLanguage(heading: string, uiLanguage: Language): Language {
  return /\p{Script=Han}/u.test(heading) ? 'zh' : uiLanguage;
}

/** Questions to start with, made from headings; clicking one asks it on the Ask page. */
export function QuestionSuggestions({ topics }: { topics: DocumentTopic[] }) {
  const t = useT();
  const uiLanguage = useLanguage();
  const ask = useApp((state) => state.ask);
  const setView = useApp((state) => state.setView);
  if (topics.length === 0) return null;
  // Other headings than the searches, when there are enough: the two lists then show six topics.
  const picked = topics.length > 3 ? topics.slice(3, 6) : topics;
  return (
    <div className="suggestions questions" role="group" aria-label={t('suggest.questions')}>
      <span className="suggestions-label">{t('suggest.questions')}</span>
      {picked.map((topic) => {
        const language = questionLanguage(topic.text, uiLanguage);
        const question = translate(language, 'suggest.question', { topic: topic.text });
        return (
          <button
            key={topic.text}
            type="button"
            className="chip"
            lang={language === uiLanguage ? undefined : language === 'zh' ? 'zh-CN' : 'en'}
            title={t('suggest.from', { title: topic.title })}
            onClick={() => {
              setView('chat');
              void ask(question);
            }}
          >
            {question}
          </button>
        );
      })}
    </div>
  );
}
