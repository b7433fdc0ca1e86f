import type { ModelProgress, ModelView } from '@shared/models';
import { formatBytes, formatNumber, type MessageKey } from '../../i18n/i18n';
import { useLanguage, useT } from '../../hooks/use-t';
import { ErrorMessage } from '../common/ErrorMessage';
import { ProgressBar } from '../common/ProgressBar';

function Status({ model, progress }: { model: ModelView; progress: ModelProgress | undefined }) {
  const t = useT();
  const language = useLanguage();
  const download = model.download;
  if (download?.state === 'running') {
    const done = progress?.doneBytes ?? download.doneBytes;
    const total = progress?.totalBytes ?? download.totalBytes ?? 0;
    const phase = progress?.phase ?? download.phase;
    const label =
      phase === 'verifying'
        ? t('models.verifying')
        : phase === 'installing'
          ? t('models.installing')
          : t('models.downloading', {
              done: formatBytes(language, done),
              total: total ? formatBytes(language, total) : '?',
            });
    return (
      <div className="model-progress" data-testid={`model-progress-${model.id}`}>
        <ProgressBar done={done} total={total} label={label} />
        <p className="muted small">{label}</p>
      </div>
    );
  }
  if (download?.state === 'failed' && download.error) return <ErrorMessage error={download.error} />;
  if (download?.state === 'cancelled') return <p className="muted small">{t('models.cancelled')}</p>;
  return null;
}

/** One catalogued model: what it is, what it costs, its state, and the one action that fits it. */
export function ModelCard({
  model,
  progress,
  action,
  onDownload,
  onCancel,
  onRemove,
}: {
  model: ModelView;
  progress: ModelProgress | undefined;
  /** The "use it" control for an installed model (embedders: switch; rerankers: choose). */
  action: React.ReactNode;
  onDownload: () => void;
  onCancel: () => void;
  onRemove: () => void;
}) {
  const t = useT();
  const language = useLanguage();
  const running = model.download?.state === 'running';
  const facts = [
    model.downloadBytes === null
      ? t('models.sizeUnknown')
      : t('models.size', { size: formatBytes(language, model.downloadBytes) }),
    ...(model.dimensions ? [t('models.dims', { dims: model.dimensions })] : []),
    model.languages.join(', '),
    t('models.licence', { licence: model.licence }),
    model.speed.cpuMsPerChunk
      ? t('models.speedChunks', {
          rate: formatNumber(language, Math.round(10_000 / model.speed.cpuMsPerChunk) / 10),
        })
      : t('models.speedPairs', { ms: Math.round(model.speed.cpuMsPerPair ?? 0) }),
  ];
  return (
    <li className="panel model-card" data-testid={`model-${model.id}`}>
      <div className="model-head">
        <strong>{model.name}</strong>
        {model.recommended && (
          <span className="badge">{t(`models.recommended.${model.recommended}` as MessageKey)}</span>
        )}
        {model.inUse && (
          <span className="badge accent">
            {t(model.kind === 'embedder' ? 'models.inUse' : 'models.rerankInUse')}
          </span>
        )}
        <span className="spacer" />
        {model.installed ? (
          <span className="muted small">
            {t(model.installed.verified ? 'models.installed' : 'models.installedUnverified')} ·{' '}
            {formatBytes(language, model.installed.bytes)}
          </span>
        ) : null}
      </div>
      <p className="model-summary">{model.summary[language]}</p>
      <p className="muted small">{facts.join(' · ')}</p>
      {model.quality.length > 0 && (
        <ul className="model-quality muted small">
          {model.quality.map((q) => (
            <li key={q.metric}>{t('models.quality', q)}</li>
          ))}
        </ul>
      )}
      <Status model={model} progress={progress} />
      {model.unavailableReason ? (
        <p className="notice-box small">{t('models.unavailable', { reason: model.unavailableReason })}</p>
      ) : !model.installed && !model.downloadable ? (
        <p className="hint small">{t('models.importOnly', { id: model.id })}</p>
      ) : null}
      <div className="actions">
        {running ? (
          <button type="button" className="button" onClick={onCancel}>
            {t('models.cancel')}
          </button>
        ) : model.installed ? (
          <>
            {action}
            {!model.inUse && (
              <button type="button" className="button quiet" onClick={onRemove}>
                {t('models.remove')}
              </button>
            )}
          </>
        ) : model.downloadable && !model.unavailableReason ? (
          <button type="button" className="button primary" onClick={onDownload}>
            {model.download?.state === 'failed' || model.download?.state === 'cancelled'
              ? t('models.retry')
              : t('models.download')}
          </button>
        ) : null}
      </div>
    </li>
  );
}
