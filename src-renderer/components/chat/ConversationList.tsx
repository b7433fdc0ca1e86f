import { formatDateTime, useLanguage, useT } from '../../i18n/i18n';
import { useAppShallow } from '../../store/store-context';
import { ConfirmButton } from '../common/ConfirmButton';
import { ErrorMessage } from '../common/ErrorMessage';

/** Past conversations, newest first: open one to continue it, or delete it after a confirmation. */
export function ConversationList() {
  const t = useT();
  const language = useLanguage();
  const { conversations, status, error, current, opening, fresh } = useAppShallow((state) => ({
    conversations: state.conversations,
    status: state.conversationsStatus,
    error: state.conversationsError,
    current: state.openingConversationId ?? state.conversationId,
    opening: state.openingConversationId,
    fresh:
      state.exchanges.length === 0 && state.conversationId === null && state.openingConversationId === null,
  }));
  const actions = useAppShallow((state) => ({
    open: state.openConversation,
    remove: state.removeConversation,
    reload: state.loadConversations,
    newConversation: state.newConversation,
  }));
  return (
    <section className="conversation-list" aria-labelledby="conversation-list-title">
      <button
        type="button"
        className="button new-conversation"
        disabled={fresh}
        onClick={actions.newConversation}
      >
        <span aria-hidden="true">＋</span> {t('chat.new')}
      </button>
      <h2 id="conversation-list-title" className="conversation-list-title">
        {t('chat.history')}
      </h2>
      {status === 'loading' && conversations.length === 0 && (
        <p className="muted small">{t('chat.historyLoading')}</p>
      )}
      {status === 'failed' && (
        <p className="small" role="alert">
          <span className="muted">
            {error ? <ErrorMessage error={error} lead={t('chat.historyFailed')} /> : t('chat.historyFailed')}
          </span>{' '}
          <button type="button" className="link-button" onClick={() => void actions.reload()}>
            {t('chat.historyRetry')}
          </button>
        </p>
      )}
      {status === 'ready' && conversations.length === 0 && (
        <p className="muted small">{t('chat.historyEmpty')}</p>
      )}
      <ul className="conversations">
        {conversations.map((conversation) => {
          const active = conversation.id === current;
          return (
            <li key={conversation.id} className={active ? 'conversation active' : 'conversation'}>
              <button
                type="button"
                className="conversation-open"
                title={conversation.title}
                aria-current={active ? 'true' : undefined}
                aria-busy={conversation.id === opening}
                onClick={() => void actions.open(conversation.id)}
              >
                <span className="conversation-title">{conversation.title}</span>
                <time className="conversation-date" dateTime={conversation.updatedAt}>
                  {formatDateTime(language, conversation.updatedAt, '')}
                </time>
              </button>
              <ConfirmButton
                icon="×"
                label={t('chat.delete', { title: conversation.title })}
                question={t('chat.deleteConfirm')}
                confirmLabel={t('chat.deleteYes')}
                onConfirm={() => void actions.remove(conversation.id)}
              />
            </li>
          );
        })}
      </ul>
    </section>
  );
}
