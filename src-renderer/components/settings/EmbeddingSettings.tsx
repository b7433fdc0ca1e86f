import { useEffect, useState } from 'react';
import type { EmbeddingProviderKind, SettingsView } from '@shared/models';
import { formatNumber, type MessageKey } from '../../i18n/i18n';
import { useLanguage, useT } from '../../hooks/use-t';
import { useApp, useAppShallow } from '../../store/store-context';
import { embeddingChanged, sectionDraft, type EmbeddingDraft } from '../../store/settings-draft';
import { ModelTest, withKey } from './ModelTest';
import { SectionSave } from './SectionSave';
import { EMBEDDING_PRESETS } from './provider-presets';

/** A local provider takes an installed model from the catalogue; its width is the catalogue's. */
function LocalModelChoice({
  draft,
  onChange,
}: {
  draft: EmbeddingDraft;
  onChange: (draft: EmbeddingDraft) => void;
}) {
  const t = useT();
  const installed = useApp((state) => state.models?.models ?? []).filter(
    (model) => model.kind === 'embedder' && model.installed,
  );
  if (installed.length === 0) return <p className="hint">{t('provider.localNone')}</p>;
  return (
    <>
      <p className="hint">{t('provider.localHint')}</p>
      <label className="field">
        <span>{t('settings.model')}</span>
        <select
          value={draft.model}
          onChange={(event) => {
            const chosen = installed.find((model) => model.id === event.target.value);
            onChange({
              ...draft,
              model: event.target.value,
              dimensions: chosen?.dimensions ?? draft.dimensions,
            });
          }}
        >
          {!installed.some((model) => model.id === draft.model) && (
            <option value={draft.model}>{draft.model}</option>
          )}
          {installed.map((model) => (
            <option key={model.id} value={model.id}>
              {model.name}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}

/** The embedding section of Settings, with the re-index explanation when the model would change. */
export function EmbeddingSettings({ settings }: { settings: SettingsView }) {
  const t = useT();
  const saved = settings.embedding;
  const draft = useAppShallow((state) => sectionDraft(settings, state.settingsEdits, 'embedding'));
  const edit = useApp((state) => state.editSettings);
  const onChange = (next: EmbeddingDraft) => edit('embedding', next);
  const language = useLanguage();
  const loadReindexCost = useApp((state) => state.loadReindexCost);
  const testEmbeddingModel = useApp((state) => state.testEmbeddingModel);
  const [cost, setCost] = useState<{ documents: number; chunks: number } | null>(null);
  const changed = embeddingChanged(saved, draft);
  useEffect(() => {
    if (!changed) return;
    let current = true;
    void loadReindexCost().then((value) => {
      if (current) setCost(value);
    });
    return () => {
      current = false;
    };
  }, [changed, loadReindexCost]);
  const preset = EMBEDDING_PRESETS[draft.provider];
  return (
    <fieldset className="panel settings-group">
      <legend>{t('settings.embedding')}</legend>
      <p className="hint">{t('settings.embeddingHint')}</p>
      <label className="field">
        <span>{t('settings.provider')}</span>
        <select
          value={draft.provider}
          onChange={(event) => {
            const provider = event.target.value as EmbeddingProviderKind;
            const next = EMBEDDING_PRESETS[provider];
            onChange({
              provider,
              baseUrl: next.baseUrl,
              model: next.model,
              dimensions: next.dimensions,
              apiKey: '',
            });
          }}
        >
          {(Object.keys(EMBEDDING_PRESETS) as EmbeddingProviderKind[]).map((kind) => (
            <option key={kind} value={kind}>
              {t(`provider.${kind}` as MessageKey)}
            </option>
          ))}
        </select>
      </label>
      {draft.provider === 'builtin' ? (
        <p className="hint">{t('provider.builtinHint')}</p>
      ) : draft.provider === 'local' ? (
        <LocalModelChoice draft={draft} onChange={onChange} />
      ) : (
        <>
          <label className="field">
            <span>{t('settings.baseUrl')}</span>
            <input
              value={draft.baseUrl}
              spellCheck={false}
              onChange={(event) => onChange({ ...draft, baseUrl: event.target.value })}
            />
          </label>
          <div className="field-row">
            <label className="field">
              <span>{t('settings.model')}</span>
              <input
                value={draft.model}
                spellCheck={false}
                onChange={(event) => onChange({ ...draft, model: event.target.value })}
              />
            </label>
            <label className="field narrow">
              <span>{t('settings.dimensions')}</span>
              <input
                type="number"
                min={1}
                max={4000}
                value={draft.dimensions}
                onChange={(event) => onChange({ ...draft, dimensions: Number(event.target.value) })}
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
                  saved.hasApiKey && saved.provider === draft.provider ? t('settings.apiKeySaved') : ''
                }
                onChange={(event) => onChange({ ...draft, apiKey: event.target.value })}
              />
            </label>
          )}
          <ModelTest
            label={t('settings.testEmbedding')}
            resetKey={JSON.stringify(draft)}
            run={() => testEmbeddingModel(withKey(draft))}
          />
        </>
      )}
      {changed && cost && (
        <p className="notice-box" role="note" data-testid="reindex-notice">
          {t('settings.reindexNotice', {
            documents: formatNumber(language, cost.documents),
            chunks: formatNumber(language, cost.chunks),
          })}
          {preset.paid && ` ${t('settings.reindexPaid')}`}
        </p>
      )}
      <SectionSave section="embedding" />
    </fieldset>
  );
}
