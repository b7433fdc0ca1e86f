import { useEffect, useRef } from 'react';
import type { MessageKey } from '../../i18n/i18n';
import { useLanguage, useT } from '../../hooks/use-t';
import { useApp, useAppShallow } from '../../store/store-context';
import { unsavedSections } from '../../store/settings-draft';

const SECTION_KEYS = {
  embedding: 'settings.embedding',
  chat: 'settings.chat',
  sync: 'settings.sync',
  models: 'models.source',
} as const satisfies Record<string, MessageKey>;

/**
 * Asked when the user leaves Settings with changes not saved: save them, discard them, or stay.
 * Leaving never drops a change without this question (issue: a tested chat model was lost).
 */
export function LeaveSettingsDialog() {
  const t = useT();
  const language = useLanguage();
  const request = useApp((state) => state.leaveRequest);
  const sections = useAppShallow((state) => unsavedSections(state.settings, state.settingsEdits));
  const resolve = useApp((state) => state.resolveLeave);
  const saveButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (request) saveButton.current?.focus();
  }, [request]);
  if (!request) return null;
  const names = new Intl.ListFormat(language === 'zh' ? 'zh-CN' : 'en', { type: 'conjunction' }).format(
    sections.map((section) => t(SECTION_KEYS[section])),
  );
  return (
    <div className="modal-backdrop">
      <div
        className="panel modal"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="leave-settings-title"
        aria-describedby="leave-settings-text"
        onKeyDown={(event) => {
          if (event.key === 'Escape') void resolve('stay');
        }}
      >
        <h2 id="leave-settings-title">{t('settings.leaveTitle')}</h2>
        <p id="leave-settings-text">{t('settings.leaveText', { sections: names })}</p>
        <div className="actions">
          <button type="button" className="button quiet" onClick={() => void resolve('stay')}>
            {t('settings.leaveStay')}
          </button>
          <span className="spacer" />
          <button type="button" className="button danger-quiet" onClick={() => void resolve('discard')}>
            {t('settings.leaveDiscard')}
          </button>
          <button
            ref={saveButton}
            type="button"
            className="button primary"
            onClick={() => void resolve('save')}
          >
            {t('settings.leaveSave')}
          </button>
        </div>
      </div>
    </div>
  );
}
