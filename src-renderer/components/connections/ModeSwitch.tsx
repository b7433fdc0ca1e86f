import { useState } from 'react';
import type { ConnectionView } from '@shared/models';
import { PLATFORM_INFO } from '@shared/platforms';
import { formatNumber, type Translate } from '../../i18n/i18n';
import { useLanguage, useT } from '../../hooks/use-t';
import { useApp } from '../../store/store-context';
import { ConfirmPrompt } from '../common/ConfirmButton';
import { searchedLive } from './connection-draft';

/** "1 indexed document" / "1,225 indexed documents": what turning the copy off or removing drops. */
export function indexedDocuments(t: Translate, language: 'en' | 'zh', count: number): string {
  return count === 1
    ? t('card.indexedDocumentsOne')
    : t('card.indexedDocuments', { count: formatNumber(language, count) });
}

/**
 * "Keep a local copy for offline search". Turning it off drops the index, so it asks first, saying
 * how many documents go. A local folder has no live search on a platform: its copy is all there is,
 * so its card has no switch (one left in direct mode by an older version can only be turned on).
 */
export function ModeSwitch({ connection, disabled }: { connection: ConnectionView; disabled: boolean }) {
  const t = useT();
  const language = useLanguage();
  const setMode = useApp((state) => state.setMode);
  const [asking, setAsking] = useState(false);
  const rag = connection.mode === 'rag';
  if (!searchedLive(connection.platform) && rag) return null;
  const documents = indexedDocuments(t, language, connection.documentCount);
  return (
    <>
      <label className="switch">
        <input
          type="checkbox"
          checked={rag && !asking}
          disabled={disabled || asking || (connection.directOnly === true && !rag)}
          onChange={(event) => {
            if (event.target.checked) void setMode(connection.id, 'rag');
            else if (connection.documentCount > 0) setAsking(true);
            else void setMode(connection.id, 'direct');
          }}
        />
        <span>{t('card.rag')}</span>
      </label>
      {asking && (
        <ConfirmPrompt
          question={t('card.directConfirm', {
            name: connection.name,
            documents,
            platform: PLATFORM_INFO[connection.platform].label[language],
          })}
          confirmLabel={t('card.directConfirmYes')}
          onConfirm={() => {
            setAsking(false);
            void setMode(connection.id, 'direct');
          }}
          onCancel={() => setAsking(false)}
        />
      )}
    </>
  );
}
