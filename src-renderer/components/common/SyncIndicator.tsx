import { useT } from '../../hooks/use-t';
import { useApp } from '../../store/store-context';

/**
 * A small line in the sidebar, seen from every view, while syncs run: how many and how far. A
 * click goes to Connections, where each card has the details.
 */
export function SyncIndicator({ compact = false }: { compact?: boolean }) {
  const t = useT();
  const progress = useApp((state) => state.progress);
  const setView = useApp((state) => state.setView);
  const running = Object.values(progress);
  const done = running.reduce((sum, item) => sum + item.documentsDone, 0);
  const total = running.reduce((sum, item) => sum + item.documentsTotal, 0);
  const label =
    (running.length === 1 ? t('indicator.one') : t('indicator.many', { count: running.length })) +
    (total > 0 ? ` · ${Math.floor((done / total) * 100)}%` : '');
  return (
    <div className="sync-indicator-slot" role="status" aria-live="polite">
      {running.length > 0 && (
        <button
          type="button"
          className="sync-indicator link-button"
          title={compact ? label : undefined}
          onClick={() => setView('connections')}
        >
          <span className="spinner" aria-hidden="true" />
          {/* In the folded sidebar only the spinner shows; the words stay for screen readers. */}
          <span className={compact ? 'visually-hidden' : undefined}>{label}</span>
        </button>
      )}
    </div>
  );
}
