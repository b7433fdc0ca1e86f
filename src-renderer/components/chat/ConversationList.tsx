import { useState } from 'react';
import type { ConversationView } from '@shared/models';
import { formatDateTime } from '../../i18n/i18n';
import { useLanguage, useT } from '../../hooks/use-t';
import { useApp, useAppShallow } from '../../store/store-context';
import { ConfirmButton } from '../common/ConfirmButton';
import { ErrorMessage } from '../common/ErrorMessage';

/** Renaming in place: Enter saves, Escape (or Cancel) leaves the title as it was. */
function RenameField({ conversation, onDone }: { conversation: ConversationView; onDone: () => void }) {
  const t = useT();
  const rename = useApp((state) => state.renameConversation);
  const [title, setTitle] = useState(conversation.title);
  async function save() {
    if (title.trim() && title.trim() !== conversation.title) await rename(conversation.id, title);
    onDone();
  }
  return (
    <form
      className="conversation-rename"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <input
        autoFocus
        aria-label={t('chat.renameLabel')}
        value={title}
        maxLength={200}
        onChange={(event) => setTitle(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && !event.nativeEvent.isComposing) {
            event.preventDefault();
            onDone();
          }
        }}
      />
    </form>
  );
}

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
  const [renaming, setRenaming] = useState<string | null>(null);
  return (
    <section id="conversation-list" className="conversation-list" aria-labelledby="conversation-list-title">
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
          if (renaming === conversation.id)
            return (
              <li key={conversation.id} className="conversation active">
                <RenameField conversation={conversation} onDone={() => setRenaming(null)} />
              </li>
            );
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
              <button
                type="button"
                className="button danger-quiet icon-button"
                aria-label={t('chat.rename', { title: conversation.title })}
                title={t('chat.rename', { title: conversation.title })}
                onClick={() => setRenaming(conversation.id)}
              >
                <span aria-hidden="true">✎</span>
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
