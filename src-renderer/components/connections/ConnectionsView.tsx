import { useT } from '../../i18n/i18n';
import { useApp } from '../../store/store-context';
import { AddConnectionForm } from './ConnectionForm';
import { ConnectionCard } from './ConnectionCard';

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
  return (
    <div className="view-connections">
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
        <AddConnectionForm key={addForm.platform} initialPlatform={addForm.platform} onClose={closeAddForm} />
      )}
      {connections.length === 0 && !addForm.open && <FirstRun />}
      <div className="card-grid">
        {connections.map((connection) => (
          <ConnectionCard key={connection.id} connection={connection} />
        ))}
      </div>
    </div>
  );
}
