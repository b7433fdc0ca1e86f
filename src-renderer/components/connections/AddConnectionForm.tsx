import { useState, type FormEvent } from 'react';
import type { Result } from '../../../src-shared/errors';
import { PLATFORMS, type NewConnection, type Platform } from '../../../src-shared/models';
import { PLATFORM_INFO } from '../../../src-shared/platforms';
import { useLanguage, useT } from '../../i18n/i18n';
import { useApp } from '../../store/store-context';

type TestState = { kind: 'idle' } | { kind: 'testing' } | { kind: 'done'; result: Result<{ message: string }> };

function defaultName(platform: Platform, values: Record<string, string>, label: string): string {
  if (platform === 'folder' && values.path) return values.path.replace(/[\\/]+$/, '').split(/[\\/]/).pop() || label;
  return label;
}

/** Add a connection: the platform's own fields (PLATFORM_INFO), a Test button, and the RAG switch. */
export function AddConnectionForm({ initialPlatform, onClose }: { initialPlatform: Platform; onClose: () => void }) {
  const t = useT();
  const language = useLanguage();
  const addConnection = useApp((state) => state.addConnection);
  const testNewConnection = useApp((state) => state.testNewConnection);
  const [platform, setPlatform] = useState<Platform>(initialPlatform);
  const [name, setName] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const [rag, setRag] = useState(true);
  const [test, setTest] = useState<TestState>({ kind: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const info = PLATFORM_INFO[platform];

  function draft(): NewConnection | null {
    const missing = info.fields.find((field) => field.required && !values[field.key]?.trim());
    if (missing) {
      setError(`${missing.label[language]}: ${t('add.required')}`);
      return null;
    }
    setError(null);
    const config: NewConnection['config'] = {};
    const secrets: Record<string, string> = {};
    for (const field of info.fields) {
      const value = values[field.key]?.trim();
      if (field.type === 'boolean') config[field.key] = value === 'true';
      else if (value) (field.secret ? secrets : config)[field.key] = value;
    }
    return { platform, name: name.trim() || defaultName(platform, values, info.label[language]), mode: rag ? 'rag' : 'direct', config, secrets };
  }

  async function onTest() {
    const input = draft();
    if (!input) return;
    setTest({ kind: 'testing' });
    setTest({ kind: 'done', result: await testNewConnection(input) });
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const input = draft();
    if (!input) return;
    setSaving(true);
    const result = await addConnection(input);
    setSaving(false);
    if (result.ok) onClose();
    else setError(result.error.message);
  }

  return (
    <form className="panel add-form" onSubmit={(event) => void onSubmit(event)} aria-label={t('add.title')}>
      <h2>{t('add.title')}</h2>
      <fieldset className="platform-picker">
        <legend>{t('add.platform')}</legend>
        {PLATFORMS.map((candidate) => (
          <label key={candidate} className={candidate === platform ? 'platform-tile selected' : 'platform-tile'}>
            <input type="radio" name="platform" value={candidate} checked={candidate === platform} onChange={() => { setPlatform(candidate); setValues({}); setTest({ kind: 'idle' }); setError(null); }} />
            <span>{PLATFORM_INFO[candidate].label[language]}</span>
            {PLATFORM_INFO[candidate].experimental && <small className="tag">{t('card.experimental')}</small>}
          </label>
        ))}
      </fieldset>
      {info.note && <p className="hint">{info.note[language]}</p>}
      <label className="field">
        <span>{t('add.name')}</span>
        <input value={name} placeholder={t('add.namePlaceholder')} onChange={(event) => setName(event.target.value)} maxLength={200} />
      </label>
      {info.fields.map((field) =>
        field.type === 'boolean' ? (
          <label className="switch" key={`${platform}-${field.key}`}>
            <input type="checkbox" checked={values[field.key] === 'true'} onChange={(event) => setValues({ ...values, [field.key]: event.target.checked ? 'true' : '' })} />
            <span>{field.label[language]}</span>
          </label>
        ) : (
          <label className="field" key={`${platform}-${field.key}`}>
            <span>{field.label[language]}{field.required && <em className="required"> *</em>}</span>
            <input
              type={field.secret ? 'password' : 'text'}
              autoComplete="off"
              spellCheck={false}
              placeholder={field.placeholder ?? (field.key === 'baseUrl' ? info.defaultBaseUrl ?? '' : '')}
              value={values[field.key] ?? ''}
              onChange={(event) => setValues({ ...values, [field.key]: event.target.value })}
            />
            {field.secret && <small className="hint">{t('add.secretHint')}</small>}
          </label>
        ),
      )}
      <label className="switch">
        <input type="checkbox" checked={rag} onChange={(event) => setRag(event.target.checked)} />
        <span>{t('card.rag')}</span>
      </label>
      {!rag && <p className="hint">{t('card.ragHint')}</p>}
      {test.kind === 'done' && (
        <p className={test.result.ok ? 'test-result ok' : 'test-result failed'} role="status">
          {test.result.ok ? `✓ ${test.result.value.message}` : `✗ ${test.result.error.message}`}
        </p>
      )}
      {error && <p className="form-error" role="alert">{error}</p>}
      <div className="actions">
        <button type="button" className="button" onClick={() => void onTest()} disabled={test.kind === 'testing'}>{test.kind === 'testing' ? t('add.testing') : t('add.test')}</button>
        <span className="spacer" />
        <button type="button" className="button quiet" onClick={onClose}>{t('common.cancel')}</button>
        <button type="submit" className="button primary" disabled={saving}>{t('add.save')}</button>
      </div>
    </form>
  );
}
