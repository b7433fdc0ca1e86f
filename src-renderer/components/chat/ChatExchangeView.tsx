import { useId, useMemo, useState } from 'react';
import type { ChatAnswer } from '@shared/models';
import { formatNumber } from '../../i18n/i18n';
import { useLanguage, useT } from '../../hooks/use-t';
import type { ChatExchange } from '../../store/slices/chat-slice';
import { selectIsAnswering } from '../../store/selectors';
import { useApp } from '../../store/store-context';
import { ErrorMessage } from '../common/ErrorMessage';
import { highlightTerms } from '../search/highlight';
import { AnswerBody } from './AnswerBody';
import { SourceCardView } from './SourceCardView';

/** Copy the answer's text (Markdown, markers included), and ask the same question again below it. */
function AnswerActions({ exchange }: { exchange: ChatExchange }) {
  const t = useT();
  const ask = useApp((state) => state.ask);
  const answering = useApp(selectIsAnswering);
  const [copied, setCopied] = useState(false);
  const text = exchange.answer?.text ?? exchange.text;
  return (
    <div className="answer-actions">
      <button
        type="button"
        className="link-button small"
        disabled={!text}
        onClick={() =>
          void navigator.clipboard?.writeText(text).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }
      >
        {copied ? t('chat.copied') : t('chat.copy')}
      </button>
      <button
        type="button"
        className="link-button small"
        disabled={answering}
        onClick={() => void ask(exchange.question)}
      >
        {t('chat.regenerate')}
      </button>
    </div>
  );
}

/**
 * "Searched for “…”": the query retrieval ran (a follow-up is rewritten into a standalone one), so
 * a wrong answer can be traced to a wrong query; Edit changes it and asks the same question again,
 * searching with the edited text as is.
 */
function SearchedFor({ exchange, searchedFor }: { exchange: ChatExchange; searchedFor: string[] }) {
  const t = useT();
  const language = useLanguage();
  const ask = useApp((state) => state.ask);
  const answering = useApp(selectIsAnswering);
  const [draft, setDraft] = useState<string | null>(null);
  const inputId = useId();
  const quoted = new Intl.ListFormat(language === 'zh' ? 'zh-CN' : 'en', { type: 'conjunction' }).format(
    searchedFor.map((query) => `“${query}”`),
  );
  if (draft === null)
    return (
      <p className="searched-for">
        <span className="muted">{t('chat.searchedFor', { queries: quoted })}</span>{' '}
        <button
          type="button"
          className="link-button small"
          disabled={answering}
          onClick={() => setDraft(searchedFor[0] ?? exchange.question)}
        >
          {t('chat.editSearch')}
        </button>
      </p>
    );
  const retry = (event: React.FormEvent) => {
    event.preventDefault();
    const searchQuery = draft.trim();
    if (!searchQuery) return;
    setDraft(null);
    void ask(exchange.question, { searchQuery });
  };
  return (
    <form className="searched-for-edit" onSubmit={retry}>
      <label htmlFor={inputId}>{t('chat.searchFor')}</label>
      <input
        id={inputId}
        type="text"
        value={draft}
        autoFocus
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.stopPropagation();
            setDraft(null);
          }
        }}
      />
      <button type="submit" className="button primary small" disabled={answering || !draft.trim()}>
        {t('chat.searchAgain')}
      </button>
      <button type="button" className="button small" onClick={() => setDraft(null)}>
        {t('common.cancel')}
      </button>
    </form>
  );
}

/**
 * Why the answer is quoted passages, said once: no model configured, the model unreachable, or the
 * model's settings unusable (with core's reason). Never "no chat model configured" beside an error.
 */
function ModeLabel({ answer }: { answer: ChatAnswer }) {
  const t = useT();
  const chatAddress = useApp((state) => state.settings?.chat.baseUrl ?? '');
  const setView = useApp((state) => state.setView);
  if (answer.mode !== 'extractive') return null;
  const error = answer.error && answer.error.code !== 'CANCELLED' ? answer.error : null;
  if (!error) return <span className="label">{t('chat.extractive')}</span>;
  if (error.code === 'SOURCE_UNREACHABLE' || error.code === 'TIMEOUT')
    // Where Cairn tried, and the way to the setting that says it: the user can check both.
    return (
      <span className="label warning-label">
        {chatAddress
          ? t('chat.extractiveUnreachableAt', { address: chatAddress })
          : t('chat.extractiveUnreachable')}{' '}
        <button type="button" className="link-button inline" onClick={() => setView('settings')}>
          {t('chat.checkSettings')}
        </button>
      </span>
    );
  return (
    <span className="label warning-label">
      <ErrorMessage error={error} lead={t('chat.extractiveUnusable')} />
    </span>
  );
}

export function ChatExchangeView({ exchange }: { exchange: ChatExchange }) {
  const t = useT();
  const language = useLanguage();
  const answer = exchange.answer;
  const terms = useMemo(() => highlightTerms(exchange.question), [exchange.question]);
  const cited = useMemo(() => answer?.citations.map((source) => source.n) ?? [], [answer]);
  const cards = answer ? (answer.citations.length > 0 ? answer.citations : answer.sources) : [];
  return (
    <section className="exchange" aria-label={exchange.question}>
      <p className="question">{exchange.question}</p>
      <div className="answer" aria-busy={exchange.status === 'asking' || exchange.status === 'streaming'}>
        {exchange.status === 'asking' && <p className="muted">{t('chat.thinking')}</p>}
        {exchange.status === 'failed' && exchange.error && exchange.error.code !== 'CANCELLED' && (
          <p className="form-error" role="alert">
            <ErrorMessage error={exchange.error} lead={t('chat.failed')} />
          </p>
        )}
        {exchange.text && (
          <AnswerBody text={exchange.text} messageId={exchange.messageId} citations={cited} />
        )}
        {exchange.status === 'streaming' && <span className="cursor" aria-hidden="true" />}
        {(exchange.status === 'done' || exchange.status === 'failed') && (
          <AnswerActions exchange={exchange} />
        )}
        {answer?.searchedFor && answer.searchedFor.length > 0 && (
          <SearchedFor exchange={exchange} searchedFor={answer.searchedFor} />
        )}
        {answer && (
          <div className="answer-labels">
            <ModeLabel answer={answer} />
            {answer.incomplete && <span className="label warning-label">{t('chat.incomplete')}</span>}
            {answer.droppedMarkers.length > 0 && (
              <span className="label">{t('chat.dropped', { count: answer.droppedMarkers.length })}</span>
            )}
            {answer.error && answer.error.code !== 'CANCELLED' && answer.mode !== 'extractive' && (
              <span className="label warning-label">
                <ErrorMessage error={answer.error} />
              </span>
            )}
            {answer.usage && (
              <span className="label muted">
                {t('chat.usage', {
                  total: formatNumber(language, answer.usage.totalTokens),
                  prompt: formatNumber(language, answer.usage.promptTokens),
                  completion: formatNumber(language, answer.usage.completionTokens),
                })}
              </span>
            )}
          </div>
        )}
      </div>
      {answer && cards.length > 0 && exchange.messageId && (
        <div className="sources">
          <h3>{answer.citations.length > 0 ? t('chat.sources') : t('chat.consulted')}</h3>
          {cards.map((source) => (
            <SourceCardView key={source.n} source={source} messageId={exchange.messageId!} terms={terms} />
          ))}
        </div>
      )}
    </section>
  );
}
