import type { ChatProviderKind, SettingsView } from '@shared/models';
import type { MessageKey } from '../../i18n/i18n';
import { useT } from '../../hooks/use-t';
import { useApp, useAppShallow } from '../../store/store-context';
import { sectionDraft, type ChatDraft } from '../../store/settings-draft';
import { ModelTest, withKey } from './ModelTest';
import { CHAT_PRESETS } from './provider-presets';
import { SectionSave } from './SectionSave';

/** The chat model: provider, address, model, key and a Test; saved on its own. */
export function ChatSettings({ saved }: { saved: SettingsView }) {
  const t = useT();
  const draft = useAppShallow((state) => sectionDraft(saved, state.settingsEdits, 'chat'));
  const edit = useApp((state) => state.editSettings);
  const testChatModel = useApp((state) => state.testChatModel);
  const change = (patch: Partial<ChatDraft>) => edit('chat', { ...draft, ...patch });
  const preset = CHAT_PRESETS[draft.provider];
  return (
    <fieldset className="panel settings-group">
      <legend>{t('settings.chat')}</legend>
      <p className="hint">{t('settings.chatHint')}</p>
      <label className="field">
        <span>{t('settings.provider')}</span>
        <select
          value={draft.provider}
          onChange={(event) => {
            const provider = event.target.value as ChatProviderKind;
            change({
              provider,
              baseUrl: CHAT_PRESETS[provider].baseUrl,
              model: CHAT_PRESETS[provider].model,
              apiKey: '',
            });
          }}
        >
          {(Object.keys(CHAT_PRESETS) as ChatProviderKind[]).map((kind) => (
            <option key={kind} value={kind}>
              {t(`provider.${kind}` as MessageKey)}
            </option>
          ))}
        </select>
      </label>
      {draft.provider !== 'none' && (
        <>
          <label className="field">
            <span>{t('settings.baseUrl')}</span>
            <input
              value={draft.baseUrl}
              spellCheck={false}
              onChange={(event) => change({ baseUrl: event.target.value })}
            />
          </label>
          <div className="field-row">
            <label className="field">
              <span>{t('settings.model')}</span>
              <input
                value={draft.model}
                spellCheck={false}
                onChange={(event) => change({ model: event.target.value })}
              />
            </label>
            <label className="field narrow">
              <span>{t('settings.topK')}</span>
              <input
                type="number"
                min={1}
                max={50}
                value={draft.topK}
                onChange={(event) => change({ topK: Number(event.target.value) })}
              />
            </label>
          </div>
          {(preset.needsKey || draft.provider === 'custom') && (
            <label className="field">
              <span>{t('settings.apiKey')}</span>
              <input
                type="password"
                autoComplete="off"
                value={draft.apiKey}
                placeholder={
                  saved.chat.hasApiKey && saved.chat.provider === draft.provider
                    ? t('settings.apiKeySaved')
                    : ''
                }
                onChange={(event) => change({ apiKey: event.target.value })}
              />
            </label>
          )}
          <ModelTest
            label={t('settings.testChat')}
            resetKey={JSON.stringify(draft)}
            run={() => testChatModel(withKey(draft))}
          />
        </>
      )}
      <SectionSave section="chat" />
    </fieldset>
  );
}
