import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useT } from '../../hooks/use-t';
import { selectIsAnswering } from '../../store/selectors';
import { useApp } from '../../store/store-context';
import { Icon } from '../common/Icon';
import { ChatExchangeView } from './ChatExchangeView';
import { conversationMarkdown, exportFileName } from './export-markdown';
import { ConversationList } from './ConversationList';
import { useFollowAnswer } from './use-follow-answer';
import { QuestionSuggestions, useTopics } from '../search/Suggestions';

export function ChatView() {
  const t = useT();
  const exchanges = useApp((state) => state.exchanges);
  const answering = useApp(selectIsAnswering);
  const opening = useApp((state) => state.openingConversationId !== null);
  const hasDocuments = useApp((state) =>
    state.connections.some((connection) => connection.documentCount > 0 || connection.mode === 'direct'),
  );
  const ask = useApp((state) => state.ask);
  const cancelAnswer = useApp((state) => state.cancelAnswer);
  const loadConversations = useApp((state) => state.loadConversations);
  const openAddForm = useApp((state) => state.openAddForm);
  const noChatModel = useApp((state) => state.settings?.chat.provider === 'none');
  const setView = useApp((state) => state.setView);
  const historyHidden = useApp((state) => state.layout.conversationsHidden);
  const setLayout = useApp((state) => state.setLayout);
  const newConversation = useApp((state) => state.newConversation);
  const fresh = useApp(
    (state) =>
      state.exchanges.length === 0 && state.conversationId === null && state.openingConversationId === null,
  );
  const [question, setQuestion] = useState('');
  const topics = useTopics();
  const list = useRef<HTMLDivElement>(null);
  const form = useRef<HTMLFormElement>(null);
  useFollowAnswer(exchanges, list, form);

  // Fetched on demand, each time the panel opens; chat.done keeps it fresh while it is shown.
  useEffect(() => {
    void loadConversations();
  }, [loadConversations]);

  const title = useApp(
    (state) =>
      state.conversations.find((conversation) => conversation.id === state.conversationId)?.title ??
      state.exchanges[0]?.question ??
      '',
  );

  /** The shown conversation as a Markdown file with its sources, downloaded by the browser (or Electron's save dialog). */
  function exportConversation() {
    const markdown = conversationMarkdown(title, exchanges, {
      sources: t('chat.sources'),
      exported: t('chat.exportedFrom'),
    });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([markdown], { type: 'text/markdown;charset=utf-8' }));
    link.download = exportFileName(title);
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  }

  function submit(event?: FormEvent) {
    event?.preventDefault();
    const text = question.trim();
    if (!text || answering || opening) return;
    setQuestion('');
    void ask(text);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // Enter sends, Shift+Enter breaks the line; never while an IME is composing Chinese text.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
  }

  return (
    <div className="view-chat">
      {!historyHidden && <ConversationList />}
      <div className="chat-pane">
        <div className="view-header">
          {/* Hiding the list gives a narrow window's width to the conversation; the choice is remembered. */}
          <button
            type="button"
            className="button quiet icon-button history-toggle"
            aria-label={historyHidden ? t('chat.showHistory') : t('chat.hideHistory')}
            title={historyHidden ? t('chat.showHistory') : t('chat.hideHistory')}
            aria-expanded={!historyHidden}
            {...(historyHidden ? {} : { 'aria-controls': 'conversation-list' })}
            onClick={() => setLayout('conversationsHidden', !historyHidden)}
          >
            <Icon name="panel" />
          </button>
          <h1>{t('chat.title')}</h1>
          <span className="spacer" />
          {historyHidden && (
            <button type="button" className="button quiet" disabled={fresh} onClick={newConversation}>
              <span aria-hidden="true">＋</span> {t('chat.new')}
            </button>
          )}
          {exchanges.length > 0 && !answering && (
            <button type="button" className="button quiet" onClick={exportConversation}>
              {t('chat.export')}
            </button>
          )}
        </div>
        {opening && (
          <p className="muted" role="status">
            {t('chat.opening')}
          </p>
        )}
        {!opening && exchanges.length === 0 && (
          <section className="empty-state compact">
            <p>{hasDocuments ? t('chat.empty') : t('chat.emptyNoDocs')}</p>
            {/* Said before the first question, not only under its answer. */}
            {noChatModel && (
              <p className="hint" role="note">
                {t('chat.noModelNote')}{' '}
                <button type="button" className="link-button inline" onClick={() => setView('settings')}>
                  {t('chat.setUpModel')}
                </button>
              </p>
            )}
            {hasDocuments && <QuestionSuggestions topics={topics} />}
            {!hasDocuments && (
              <button type="button" className="button primary" onClick={() => openAddForm('folder')}>
                {t('connections.emptyAction')}
              </button>
            )}
          </section>
        )}
        <div className="exchanges" aria-busy={opening} ref={list}>
          {!opening &&
            exchanges.map((exchange) => <ChatExchangeView key={exchange.key} exchange={exchange} />)}
        </div>
        <form className="ask-form" onSubmit={submit} ref={form}>
          <textarea
            aria-label={t('chat.send')}
            rows={2}
            placeholder={t('chat.placeholder')}
            value={question}
            maxLength={20_000}
            onChange={(event) => setQuestion(event.target.value)}
            onKeyDown={onKeyDown}
          />
          {answering ? (
            <button type="button" className="button" onClick={() => void cancelAnswer()}>
              {t('chat.stop')}
            </button>
          ) : (
            <button type="submit" className="button primary" disabled={!question.trim() || opening}>
              {t('chat.send')}
            </button>
          )}
        </form>
      </div>
    </div>
  );
}
