import { useEffect, useState } from 'react';
import type { SettingsView as SettingsData } from '@shared/models';
import { formatBytes, hasMessage, type Translate } from '../../i18n/i18n';
import { useLanguage, useT } from '../../hooks/use-t';
import { sectionDraft } from '../../store/settings-draft';
import { useApp, useAppShallow } from '../../store/store-context';
import type { ThemeChoice } from '../../theme';
import { ProgressBar } from '../common/ProgressBar';
import { SecretStorageNote } from '../common/SecretStorageNote';
import { ChatSettings } from './ChatSettings';
import { EmbeddingSettings } from './EmbeddingSettings';
import { LocalModelsSection } from './LocalModelsSection';
import { McpSettings } from './McpSettings';
import { SectionSave } from './SectionSave';

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

/** How often to sync on schedule, and whether to; saved on its own. */
function SyncSettings({ saved }: { saved: SettingsData }) {
  const t = useT();
  const draft = useAppShallow((state) => sectionDraft(saved, state.settingsEdits, 'sync'));
  const edit = useApp((state) => state.editSettings);
  return (
    <fieldset className="panel settings-group">
      <legend>{t('settings.sync')}</legend>
      <label className="field narrow">
        <span>{t('settings.interval')}</span>
        <input
          type="number"
          min={1}
          max={720}
          value={draft.syncIntervalHours}
          onChange={(event) => edit('sync', { ...draft, syncIntervalHours: Number(event.target.value) })}
        />
      </label>
      <NotificationPermission />
      <label className="switch">
        <input
          type="checkbox"
          checked={draft.scheduledSyncPaused}
          onChange={(event) => edit('sync', { ...draft, scheduledSyncPaused: event.target.checked })}
        />
        <span>{t('settings.paused')}</span>
      </label>
      <SectionSave section="sync" />
    </fieldset>
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
  const language = useLanguage();
  const settings = useApp((state) => state.settings);
  const reindex = useApp((state) => state.reindex);
  const version = useApp((state) => state.version);
  const dataDir = useApp((state) => state.dataDir);
  const storage = useApp((state) => state.storage);
  const refreshStorage = useApp((state) => state.refreshStorage);
  useEffect(() => {
    void refreshStorage();
  }, [refreshStorage]);
  const setLanguage = useApp((state) => state.setLanguage);
  const theme = useApp((state) => state.theme);
  const setTheme = useApp((state) => state.setTheme);
  if (!settings) return null;
  return (
    <div className="view-settings">
      <div className="view-header">
        <h1>{t('settings.title')}</h1>
      </div>
      <div className="settings-looks">
        <fieldset className="panel settings-group compact">
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
        <fieldset className="panel settings-group compact">
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
      </div>
      {reindex && (
        <div className="panel reindex">
          <p className="muted" data-testid="search-index">
            {reindex.activeSpace
              ? t('settings.activeSpace', { space: spaceLabel(t, reindex.activeSpace) })
              : t('settings.keywordOnly')}
          </p>
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
      <EmbeddingSettings settings={settings} />
      <ChatSettings saved={settings} />
      <SyncSettings saved={settings} />
      <LocalModelsSection settings={settings} />
      <McpSettings />
      <p className="muted small about">
        {t('settings.about', { dir: dataDir, version })}
        {storage && (
          <>
            <br />
            <span data-testid="data-dir-size">
              {t('settings.storage', {
                total: formatBytes(language, storage.totalBytes),
                index: formatBytes(language, storage.databaseBytes),
                free: storage.freeBytes === null ? '?' : formatBytes(language, storage.freeBytes),
              })}
            </span>
          </>
        )}
        <br />
        <SecretStorageNote className="muted small" />
      </p>
    </div>
  );
}
