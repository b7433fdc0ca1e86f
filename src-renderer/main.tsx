/** Renderer entry: pick the transport, build the store, connect snapshot + events, render. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { CairnPreloadGlobals } from '@shared/bridge';
import { App } from './App';
import { createAppStore } from './store/app-store';
import { connectStore } from './store/connect-store';
import { languageFromTag } from './i18n/i18n';
import { StoreProvider } from './store/store-context';
import { selectTransport } from './transport/transport';
import './styles/app.css';
import './styles/filters.css';

const root = createRoot(document.getElementById('root')!);
try {
  const transport = selectTransport(window as Window & Partial<CairnPreloadGlobals>);
  const { store, dispose } = createAppStore(transport.api, {
    systemLanguage: languageFromTag(navigator.language),
    host: transport.kind === 'ipc' ? 'desktop' : 'browser',
  });
  const disconnect = connectStore(store, transport);
  window.addEventListener('pagehide', () => {
    disconnect();
    dispose();
    transport.dispose();
  });
  root.render(
    <StrictMode>
      <StoreProvider store={store}>
        <App />
      </StoreProvider>
    </StrictMode>,
  );
} catch (error) {
  root.render(
    <div className="splash" role="alert">
      <p>{error instanceof Error ? error.message : String(error)}</p>
    </div>,
  );
}
