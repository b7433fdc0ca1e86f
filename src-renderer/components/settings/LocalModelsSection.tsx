import { useEffect } from 'react';
import type { ModelSourceKind, ModelView, SettingsView } from '@shared/models';
import { formatBytes, formatDuration, formatNumber, type MessageKey } from '../../i18n/i18n';
import { useLanguage, useT } from '../../hooks/use-t';
import { sectionDraft, sectionPatch } from '../../store/settings-draft';
import { useApp, useAppShallow } from '../../store/store-context';
import { ModelCard } from './ModelCard';

/** Where models download from; saved with its own button (a section of Settings' unsaved-changes check). */
function SourcePicker({ settings }: { settings: SettingsView }) {
  const t = useT();
  const models = useApp((state) => state.models);
  const draft = useAppShallow((state) => sectionDraft(settings, state.settingsEdits, 'models'));
  const edit = useApp((state) => state.editSettings);
  const save = useApp((state) => state.saveSettingsSection);
  const load = useApp((state) => state.loadModels);
  const changed = useApp((state) => sectionPatch(settings, state.settingsEdits, 'models') !== null);
  return (
    <div className="field-row model-source">
      <label className="field">
        <span>{t('models.source')}</span>
        <select
          value={draft.source}
          onChange={(event) => edit('models', { ...draft, source: event.target.value as ModelSourceKind })}
        >
          {(['huggingface', 'mirror', 'modelscope'] as const).map((kind) => (
            <option key={kind} value={kind}>
              {t(`models.source.${kind}` as MessageKey)}
            </option>
          ))}
        </select>
      </label>
      {draft.source === 'mirror' && (
        <label className="field">
          <span>{t('models.mirrorUrl')}</span>
          <input
            value={draft.mirrorUrl}
            spellCheck={false}
            onChange={(event) => edit('models', { ...draft, mirrorUrl: event.target.value })}
          />
        </label>
      )}
      {changed && (
        <button
          type="button"
          className="button"
          onClick={() => void save('models').then((saved) => (saved ? load() : undefined))}
        >
          {t('models.saveSource')}
        </button>
      )}
      {models?.source.fromEnv && (
        <p className="hint small">{t('models.sourceFromEnv', { url: models.source.url })}</p>
      )}
    </div>
  );
}

function Ollama() {
  const t = useT();
  const ollama = useApp((state) => state.ollama);
  const detect = useApp((state) => state.detectOllama);
  const saveSettings = useApp((state) => state.saveSettings);
  if (!ollama) return null;
  return (
    <div className="ollama" data-testid="ollama">
      <h3>{t('models.ollama')}</h3>
      {ollama.reachable && ollama.models.length > 0 ? (
        <>
          <p className="muted small">{t('models.ollamaFound', { url: ollama.baseUrl })}</p>
          <div className="actions">
            {ollama.models.map((model) => (
              <button
                key={model.name}
                type="button"
                className="button"
                onClick={() =>
                  void saveSettings({
                    embedding: {
                      provider: 'ollama',
                      baseUrl: `${ollama.baseUrl}/v1`,
                      model: model.name,
                      dimensions: model.dimensions,
                    },
                  })
                }
              >
                {t('models.ollamaUse', { name: model.name, dims: model.dimensions })}
              </button>
            ))}
          </div>
        </>
      ) : (
        <p className="muted small">
          {t('models.ollamaNone')}{' '}
          <button type="button" className="link-button inline" onClick={() => void detect()}>
            {t('models.ollamaCheck')}
          </button>
        </p>
      )}
    </div>
  );
}

/** Settings' local-model section: source, embedding models and rerankers with download, cost and use. */
export function LocalModelsSection({ settings }: { settings: SettingsView }) {
  const t = useT();
  const language = useLanguage();
  const models = useApp((state) => state.models);
  const progress = useApp((state) => state.modelProgress);
  const load = useApp((state) => state.loadModels);
  const pull = useApp((state) => state.pullModel);
  const cancel = useApp((state) => state.cancelModel);
  const remove = useApp((state) => state.removeModel);
  const detectOllama = useApp((state) => state.detectOllama);
  const save = useApp((state) => state.saveSettings);
  // What is "in use" changes with the settings: the list is read again after each change.
  const saveSettings = async (patch: Parameters<typeof save>[0]) => {
    await save(patch);
    await load();
  };
  useEffect(() => {
    void load();
    void detectOllama();
  }, [load, detectOllama]);
  if (!models) return null;

  const embedderAction = (model: ModelView) =>
    model.inUse ? null : (
      <>
        {model.reembed && model.reembed.chunks > 0 && (
          <p className="hint small" data-testid={`model-cost-${model.id}`}>
            {t('models.useCost', {
              chunks: formatNumber(language, model.reembed.chunks),
              time: formatDuration(language, model.reembed.seconds),
              disk: formatBytes(language, model.reembed.vectorBytes),
            })}
          </p>
        )}
        <button
          type="button"
          className="button primary"
          onClick={() =>
            void saveSettings({ embedding: { provider: 'local', model: model.id, baseUrl: '' } })
          }
        >
          {t('models.use')}
        </button>
      </>
    );
  const rerankerAction = (model: ModelView) =>
    model.inUse ? null : (
      <button
        type="button"
        className="button"
        onClick={() => void saveSettings({ reranker: { enabled: true, model: model.id } })}
      >
        {t('models.rerankChoose')}
      </button>
    );
  const card = (model: ModelView) => (
    <ModelCard
      key={model.id}
      model={model}
      progress={progress[model.id]}
      action={model.kind === 'embedder' ? embedderAction(model) : rerankerAction(model)}
      onDownload={() => void pull(model.id)}
      onCancel={() => void cancel(model.id)}
      onRemove={() => void remove(model.id)}
    />
  );
  return (
    <fieldset className="panel settings-group local-models" data-testid="local-models">
      <legend>{t('models.title')}</legend>
      <p className="hint">{t('models.hint')}</p>
      <SourcePicker settings={settings} />
      <h3>{t('models.embedders')}</h3>
      <ul className="model-list">{models.models.filter((m) => m.kind === 'embedder').map(card)}</ul>
      <h3>{t('models.rerankers')}</h3>
      {/* The switch and its budget only once there is a reranker to use: "on" with none installed
          claimed a reranking that no search gets. */}
      {models.models.some((m) => m.kind === 'reranker' && m.installed) ? (
        <div className="field-row">
          <label className="switch">
            <input
              type="checkbox"
              checked={settings.reranker.enabled}
              onChange={(event) => void saveSettings({ reranker: { enabled: event.target.checked } })}
            />
            <span>{t('models.rerankOn')}</span>
          </label>
          <label className="field narrow">
            <span>{t('models.rerankBudget')}</span>
            <input
              type="number"
              min={0}
              max={60000}
              step={50}
              defaultValue={settings.reranker.budgetMs}
              onBlur={(event) => {
                const budgetMs = Number(event.target.value);
                if (Number.isInteger(budgetMs) && budgetMs !== settings.reranker.budgetMs)
                  void saveSettings({ reranker: { budgetMs } });
              }}
            />
          </label>
        </div>
      ) : (
        <p className="hint" data-testid="rerank-none">
          {t('models.rerankNone')}
        </p>
      )}
      <ul className="model-list">{models.models.filter((m) => m.kind === 'reranker').map(card)}</ul>
      <Ollama />
    </fieldset>
  );
}
