import { useEffect, useMemo, useState } from 'react';
import { ChatView } from './components/chat/ChatView';
import { DatabaseRefused } from './components/common/DatabaseRefused';
import { ErrorMessage } from './components/common/ErrorMessage';
import { Icon, type IconName } from './components/common/Icon';
import { NoticeToast } from './components/common/NoticeToast';
import { DocumentPreview } from './components/preview/DocumentPreview';
import { SyncIndicator } from './components/common/SyncIndicator';
import { ConnectionsView } from './components/connections/ConnectionsView';
import { SearchBox } from './components/search/SearchBox';
import { SearchView } from './components/search/SearchView';
import { LeaveSettingsDialog } from './components/settings/LeaveSettingsDialog';
import { SettingsView } from './components/settings/SettingsView';
import { type MessageKey } from './i18n/i18n';
import { useLanguage, useT } from './hooks/use-t';
import type { View } from './store/slices/ui-slice';
import { unsavedSections } from './store/settings-draft';
import { useApp } from './store/store-context';
import { effectiveTheme } from './theme';

const VIEWS: View[] = ['connections', 'search', 'chat', 'settings'];
const NAV_KEYS: Record<View, MessageKey> = {
  connections: 'nav.connections',
  search: 'nav.search',
  chat: 'nav.chat',
  settings: 'nav.settings',
};

function LanguageSwitch() {
  const t = useT();
  const language = useLanguage();
  const setLanguage = useApp((state) => state.setLanguage);
  return (
    <div className="language-switch" role="group" aria-label={t('nav.language')}>
      <button type="button" aria-pressed={language === 'zh'} onClick={() => void setLanguage('zh')}>
        中文
      </button>
      <button type="button" aria-pressed={language === 'en'} onClick={() => void setLanguage('en')}>
        EN
      </button>
    </div>
  );
}

/** Light/dark at a click; the choice overrides the system's until set back in Settings. */
function ThemeToggle() {
  const t = useT();
  const theme = useApp((state) => state.theme);
  const setTheme = useApp((state) => state.setTheme);
  const dark = useSystemDark();
  const shown = effectiveTheme(theme, dark);
  return (
    <button
      type="button"
      className="button quiet icon-button theme-toggle"
      aria-label={shown === 'dark' ? t('theme.toLight') : t('theme.toDark')}
      title={shown === 'dark' ? t('theme.toLight') : t('theme.toDark')}
      onClick={() => setTheme(shown === 'dark' ? 'light' : 'dark')}
    >
      <span aria-hidden="true">{shown === 'dark' ? '☀' : '☾'}</span>
    </button>
  );
}

function useSystemDark(): boolean {
  const query = useMemo(
    () => (typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null),
    [],
  );
  const [dark, setDark] = useState(query?.matches ?? false);
  useEffect(() => {
    if (!query) return;
    const onChange = (event: MediaQueryListEvent) => setDark(event.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, [query]);
  return dark;
}

const NAV_ICONS: Record<View, IconName> = {
  connections: 'connections',
  search: 'search',
  chat: 'chat',
  settings: 'settings',
};

/** The app's navigation. Folded to its icons it leaves a narrow window to the content; the choice is remembered. */
function Sidebar() {
  const t = useT();
  const view = useApp((state) => state.view);
  const setView = useApp((state) => state.setView);
  const collapsed = useApp((state) => state.layout.sidebarCollapsed);
  const setLayout = useApp((state) => state.setLayout);
  const toggleLabel = collapsed ? t('nav.expand') : t('nav.collapse');
  return (
    <nav className={collapsed ? 'sidebar collapsed' : 'sidebar'} aria-label="Cairn">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true" />
        {!collapsed && (
          <div className="brand-text">
            <div className="brand-name">{t('app.name')}</div>
            <div className="brand-tagline">{t('app.tagline')}</div>
          </div>
        )}
      </div>
      <ul className="nav">
        {VIEWS.map((candidate) => (
          <li key={candidate}>
            <button
              type="button"
              className={candidate === view ? 'nav-item active' : 'nav-item'}
              aria-current={candidate === view ? 'page' : undefined}
              title={collapsed ? t(NAV_KEYS[candidate]) : undefined}
              onClick={() => setView(candidate)}
            >
              <Icon name={NAV_ICONS[candidate]} />
              <span className={collapsed ? 'visually-hidden' : 'nav-label'}>{t(NAV_KEYS[candidate])}</span>
            </button>
          </li>
        ))}
      </ul>
      <span className="spacer" />
      <SyncIndicator compact={collapsed} />
      <div className="sidebar-footer">
        <LanguageSwitch />
        <ThemeToggle />
        <button
          type="button"
          className="button quiet icon-button sidebar-toggle"
          aria-label={toggleLabel}
          title={toggleLabel}
          aria-expanded={!collapsed}
          onClick={() => setLayout('sidebarCollapsed', !collapsed)}
        >
          <Icon name="panel" />
        </button>
      </div>
    </nav>
  );
}

function CurrentView() {
  const view = useApp((state) => state.view);
  if (view === 'search') return <SearchView />;
  if (view === 'chat') return <ChatView />;
  if (view === 'settings') return <SettingsView />;
  return <ConnectionsView />;
}

export function App() {
  const t = useT();
  const language = useLanguage();
  const phase = useApp((state) => state.phase);
  const loadError = useApp((state) => state.loadError);
  const requestSearchFocus = useApp((state) => state.requestSearchFocus);
  const theme = useApp((state) => state.theme);
  const systemDark = useSystemDark();
  const unsaved = useApp((state) => unsavedSections(state.settings, state.settingsEdits).length > 0);
  const host = useApp((state) => state.host);

  useEffect(() => {
    // Browser host: closing or reloading the tab asks first while Settings holds unsaved changes.
    // (Electron would treat a beforeunload answer as "never close", so the desktop shell is left alone.)
    if (!unsaved || host !== 'browser') return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [unsaved, host]);

  useEffect(() => {
    document.documentElement.dataset['theme'] = effectiveTheme(theme, systemDark);
  }, [theme, systemDark]);

  useEffect(() => {
    document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
  }, [language]);

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        requestSearchFocus();
      }
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [requestSearchFocus]);

  if (phase === 'failed' && loadError?.code === 'DATA_DIR_DAMAGED')
    return <DatabaseRefused error={loadError} />;
  if (phase !== 'ready') {
    return (
      <div className="splash" role={phase === 'failed' ? 'alert' : 'status'}>
        <span className="brand-mark large" aria-hidden="true" />
        <p>
          {phase === 'failed' && loadError ? (
            <ErrorMessage error={loadError} lead={t('app.loadFailed')} />
          ) : phase === 'failed' ? (
            t('app.loadFailed')
          ) : (
            t('app.loading')
          )}
        </p>
      </div>
    );
  }
  return (
    <div className="app">
      <Sidebar />
      <main className="main">
        <header className="topbar">
          <SearchBox />
        </header>
        {/* In the layout, between the search bar and the view: it takes its own row, so it can never cover a control. */}
        <NoticeToast />
        <div className="view">
          <CurrentView />
        </div>
      </main>
      <DocumentPreview />
      <LeaveSettingsDialog />
    </div>
  );
}
