import { useState, type FormEvent } from 'react';
import type { ChatProviderKind, SettingsPatch, SettingsView as SettingsData } from '@shared/models';
import { hasMessage, type MessageKey, type Translate } from '../../i18n/i18n';
import { useT } from '../../hooks/use-t';
import { useApp } from '../../store/store-context';
import { ProgressBar } from '../common/ProgressBar';
import { SecretStorageNote } from '../common/SecretStorageNote';
import { EmbeddingSettings, embeddingChanged, type EmbeddingDraft } from './EmbeddingSettings';
import { McpSettings } from './McpSettings';
import { LocalModelsSection } from './LocalModelsSection';
import { ModelTest, withKey } from './ModelTest';
import type { ThemeChoice } from '../../theme';
import { CHAT_PRESETS } from './provider-presets';

interface Draft {
  embedding: EmbeddingDraft;
  chat: { provider: ChatProviderKind; baseUrl: string; model: string; topK: number; apiKey: string };
  syncIntervalHours: number;
  scheduledSyncPaused: boolean;
}

/** "builtin/cairn-hash-v1/1024" in words: the provider's name, the model and its size. */
export function spaceLabel(t: Translate, space: string): string {
  const parts = space.split('/');
  const [provider = '', dimensions = ''] = [parts[0], parts[parts.length - 1]];
  const model = parts.slice(1, -1).join('/');
  const key = `provider.${provider}`;
  const name = hasMessage(key) ? t(key) : provider;
  if (provider === 'builtin') return name;
  return `${name} · ${t('settings.spaceDimensions', { model, dimensions })}`;
}

function draftOf(settings: SettingsData): Draft {
  const { hasApiKey: _e, ...embedding } = settings.embedding;
  const { hasApiKey: _c, ...chat } = settings.chat;
  return {
    embedding: { ...embedding, apiKey: '' },
    chat: { ...chat, apiKey: '' },
    syncIntervalHours: settings.syncIntervalHours,
    scheduledSyncPaused: settings.scheduledSyncPaused,
  };
}

/** Only what changed goes to core; an empty key field means "keep the stored key". */
function patchOf(saved: SettingsData, draft: Draft): SettingsPatch {
  const patch: SettingsPatch = {};
  const { apiKey: embeddingKey, ...embedding } = draft.embedding;
  if (
    embeddingChanged(saved.embedding, draft.embedding) ||
    embedding.baseUrl !== saved.embedding.baseUrl ||
    embeddingKey
  )
    patch.embedding = { ...embedding, ...(embeddingKey ? { apiKey: embeddingKey } : {}) };
  const { apiKey: chatKey, ...chat } = draft.chat;
  if (
    chat.provider !== saved.chat.provider ||
    chat.baseUrl !== saved.chat.baseUrl ||
    chat.model !== saved.chat.model ||
    chat.topK !== saved.chat.topK ||
    chatKey
  )
    patch.chat = { ...chat, ...(chatKey ? { apiKey: chatKey } : {}) };
  if (draft.syncIntervalHours !== saved.syncIntervalHours) patch.syncIntervalHours = draft.syncIntervalHours;
  if (draft.scheduledSyncPaused !== saved.scheduledSyncPaused)
    patch.scheduledSyncPaused = draft.scheduledSyncPaused;
  return patch;
}

function SettingsForm({ saved }: { saved: SettingsData }) {
  const t = useT();
  const saveSettings = useApp((state) => state.saveSettings);
  const showNotice = useApp((state) => state.showNotice);
  const testChatModel = useApp((state) => state.testChatModel);
  const [draft, setDraft] = useState<Draft>(() => draftOf(saved));
  const chatPreset = CHAT_PRESETS[draft.chat.provider];

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (await saveSettings(patchOf(saved, draft))) {
      setDraft((current) => ({
        ...current,
        embedding: { ...current.embedding, apiKey: '' },
        chat: { ...current.chat, apiKey: '' },
      }));
      showNotice('info', t('settings.saved'));
    }
  }

  return (
    <form className="settings-form" onSubmit={(event) => void onSubmit(event)}>
      <EmbeddingSettings
        saved={saved.embedding}
        draft={draft.embedding}
        onChange={(embedding) => setDraft({ ...draft, embedding })}
      />
      <fieldset className="panel settings-group">
        <legend>{t('settings.chat')}</legend>
        <p className="hint">{t('settings.chatHint')}</p>
        <label className="field">
          <span>{t('settings.provider')}</span>
          <select
            value={draft.chat.provider}
            onChange={(event) => {
              const provider = event.target.value as ChatProviderKind;
              setDraft({
                ...draft,
                chat: {
                  ...draft.chat,
                  provider,
                  baseUrl: CHAT_PRESETS[provider].baseUrl,
                  model: CHAT_PRESETS[provider].model,
                  apiKey: '',
                },
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
        {draft.chat.provider !== 'none' && (
          <>
            <label className="field">
              <span>{t('settings.baseUrl')}</span>
              <input
                value={draft.chat.baseUrl}
                spellCheck={false}
                onChange={(event) =>
                  setDraft({ ...draft, chat: { ...draft.chat, baseUrl: event.target.value } })
                }
              />
            </label>
            <div className="field-row">
              <label className="field">
                <span>{t('settings.model')}</span>
                <input
                  value={draft.chat.model}
                  spellCheck={false}
                  onChange={(event) =>
                    setDraft({ ...draft, chat: { ...draft.chat, model: event.target.value } })
                  }
                />
              </label>
              <label className="field narrow">
                <span>{t('settings.topK')}</span>
                <input
                  type="number"
                  min={1}
                  max={50}
                  value={draft.chat.topK}
                  onChange={(event) =>
                    setDraft({ ...draft, chat: { ...draft.chat, topK: Number(event.target.value) } })
                  }
                />
              </label>
            </div>
            {(chatPreset.needsKey || draft.chat.provider === 'custom') && (
              <label className="field">
                <span>{t('settings.apiKey')}</span>
                <input
                  type="password"
                  autoComplete="off"
                  value={draft.chat.apiKey}
                  placeholder={
                    saved.chat.hasApiKey && saved.chat.provider === draft.chat.provider
                      ? t('settings.apiKeySaved')
                      : ''
                  }
                  onChange={(event) =>
                    setDraft({ ...draft, chat: { ...draft.chat, apiKey: event.target.value } })
                  }
                />
              </label>
            )}
            <ModelTest
              label={t('settings.testChat')}
              resetKey={JSON.stringify(draft.chat)}
              run={() => testChatModel(withKey(draft.chat))}
            />
          </>
        )}
      </fieldset>
      <fieldset className="panel settings-group">
        <legend>{t('settings.sync')}</legend>
        <label className="field narrow">
          <span>{t('settings.interval')}</span>
          <input
            type="number"
            min={1}
            max={720}
            value={draft.syncIntervalHours}
            onChange={(event) => setDraft({ ...draft, syncIntervalHours: Number(event.target.value) })}
          />
        </label>
        <NotificationPermission />
        <label className="switch">
          <input
            type="checkbox"
            checked={draft.scheduledSyncPaused}
            onChange={(event) => setDraft({ ...draft, scheduledSyncPaused: event.target.checked })}
          />
          <span>{t('settings.paused')}</span>
        </label>
      </fieldset>
      <div className="actions">
        <span className="spacer" />
        <button type="submit" className="button primary">
          {t('common.save')}
        </button>
      </div>
    </form>
  );
}

/** Browser host only: sync notifications need the page's permission, asked for on a click. */
function NotificationPermission() {
  const t = useT();
  const host = useApp((state) => state.host);
  const Notify = globalThis.Notification;
  const [permission, setPermission] = useState(Notify?.permission ?? 'denied');
  if (host !== 'browser' || !Notify) return null;
  return (
    <p className="small">
      {permission === 'granted' ? (
        <span className="muted">{t('notify.allowed')}</span>
      ) : permission === 'denied' ? (
        <span className="muted">{t('notify.blocked')}</span>
      ) : (
        <button
          type="button"
          className="button"
          onClick={() => void Notify.requestPermission().then(setPermission)}
        >
          {t('notify.allow')}
        </button>
      )}
    </p>
  );
}

export function SettingsView() {
  const t = useT();
  const settings = useApp((state) => state.settings);
  const reindex = useApp((state) => state.reindex);
  const version = useApp((state) => state.version);
  const dataDir = useApp((state) => state.dataDir);
  const setLanguage = useApp((state) => state.setLanguage);
  const theme = useApp((state) => state.theme);
  const setTheme = useApp((state) => state.setTheme);
  if (!settings) return null;
  return (
    <div className="view-settings">
      <div className="view-header">
        <h1>{t('settings.title')}</h1>
      </div>
      {reindex && (
        <div className="panel reindex">
          <p className="muted">{t('settings.activeSpace', { space: spaceLabel(t, reindex.activeSpace) })}</p>
          {reindex.running && (
            <>
              <ProgressBar
                done={reindex.done}
                total={reindex.total}
                label={t('settings.reindexRunning', { done: reindex.done, total: reindex.total })}
              />
              <p className="muted small">
                {t('settings.reindexRunning', { done: reindex.done, total: reindex.total })}
              </p>
            </>
          )}
        </div>
      )}
      <LocalModelsSection settings={settings} />
      <fieldset className="panel settings-group">
        <legend>{t('settings.language')}</legend>
        <label className="field narrow">
          <span className="visually-hidden">{t('settings.language')}</span>
          <select
            value={settings.language}
            onChange={(event) => void setLanguage(event.target.value as SettingsData['language'])}
          >
            <option value="system">{t('settings.language.system')}</option>
            <option value="zh">中文</option>
            <option value="en">English</option>
          </select>
        </label>
      </fieldset>
      <fieldset className="panel settings-group">
        <legend>{t('settings.theme')}</legend>
        <label className="field narrow">
          <span className="visually-hidden">{t('settings.theme')}</span>
          <select value={theme} onChange={(event) => setTheme(event.target.value as ThemeChoice)}>
            <option value="system">{t('settings.theme.system')}</option>
            <option value="light">{t('settings.theme.light')}</option>
            <option value="dark">{t('settings.theme.dark')}</option>
          </select>
        </label>
      </fieldset>
      <SettingsForm key={JSON.stringify(settings)} saved={settings} />
      <McpSettings />
      <p className="muted small about">
        {t('settings.about', { dir: dataDir, version })}
        <br />
        <SecretStorageNote className="muted small" />
      </p>
    </div>
  );
}
