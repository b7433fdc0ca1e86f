import { useState, type DragEvent } from 'react';
import type { CairnPreloadGlobals } from '@shared/bridge';
import { useT } from '../../hooks/use-t';
import { useApp } from '../../store/store-context';
import { AddConnectionForm } from './ConnectionForm';
import { ConnectionCard } from './ConnectionCard';
import { ReadyPanel } from './ReadyPanel';

function FirstRun() {
  const t = useT();
  const openAddForm = useApp((state) => state.openAddForm);
  return (
    <section className="empty-state">
      <div className="empty-mark" aria-hidden="true" />
      <h2>{t('connections.emptyTitle')}</h2>
      <p>{t('connections.emptyBody')}</p>
      <button type="button" className="button primary large" onClick={() => openAddForm('folder')}>
        {t('connections.emptyAction')}
      </button>
      <p className="muted">{t('connections.emptyLater')}</p>
    </section>
  );
}

export function ConnectionsView() {
  const t = useT();
  const connections = useApp((state) => state.connections);
  const addForm = useApp((state) => state.addForm);
  const openAddForm = useApp((state) => state.openAddForm);
  const closeAddForm = useApp((state) => state.closeAddForm);
  const syncAll = useApp((state) => state.syncAll);
  const showNotice = useApp((state) => state.showNotice);
  const [dropping, setDropping] = useState(false);
  // A folder dropped on the view opens "Add folder" with its path: Electron's preload tells the
  // path (webUtils.getPathForFile); a browser never does, so there the path is typed.
  const onDragOver = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    setDropping(true);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDropping(false);
    const file = event.dataTransfer.files[0];
    const pathForFile = (window as Window & Partial<CairnPreloadGlobals>).pathForFile;
    const path = file && pathForFile ? pathForFile(file) : '';
    if (path) openAddForm('folder', path);
    else showNotice('info', 'folder.dropNoPath');
  };
  return (
    <div
      className={dropping ? 'view-connections dropping' : 'view-connections'}
      onDragOver={onDragOver}
      onDragLeave={() => setDropping(false)}
      onDrop={onDrop}
    >
      {dropping && (
        <div className="drop-hint" aria-hidden="true">
          {t('folder.dropHint')}
        </div>
      )}
      <div className="view-header">
        <h1>{t('connections.title')}</h1>
        <span className="spacer" />
        {connections.some((connection) => connection.mode === 'rag') && (
          <button type="button" className="button" onClick={() => void syncAll()}>
            {t('connections.syncAll')}
          </button>
        )}
        {connections.length > 0 && !addForm.open && (
          <button type="button" className="button primary" onClick={() => openAddForm(addForm.platform)}>
            {t('connections.add')}
          </button>
        )}
      </div>
      {addForm.open && (
        <AddConnectionForm
          key={`${addForm.platform}:${addForm.path ?? ''}`}
          initialPlatform={addForm.platform}
          initialPath={addForm.path}
          onClose={closeAddForm}
        />
      )}
      {connections.length === 0 && !addForm.open && <FirstRun />}
      {!addForm.open && <ReadyPanel />}
      <div className="card-grid">
        {connections.map((connection) => (
          <ConnectionCard key={connection.id} connection={connection} />
        ))}
      </div>
    </div>
  );
}
