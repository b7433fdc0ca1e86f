import { Fragment, useState, type FormEvent } from 'react';
import type { AppErrorData, Result } from '@shared/errors';
import {
  CONNECTION_NAME_MAX_LENGTH,
  PLATFORMS,
  type ConnectionUpdate,
  type ConnectionView,
  type CoreMessage,
  type NewConnection,
  type Platform,
} from '@shared/models';
import { PLATFORM_INFO, type CredentialField } from '@shared/platforms';
import { useLanguage, useT } from '../../i18n/i18n';
import { FolderPathTools } from './FolderPathTools';
import { useAppShallow } from '../../store/store-context';
import { ErrorMessage } from '../common/ErrorMessage';
import { SecretStorageNote } from '../common/SecretStorageNote';
import { SuccessMessage } from '../common/SuccessMessage';

type TestState = { kind: 'idle' } | { kind: 'testing' } | { kind: 'done'; result: Result<CoreMessage> };

/** Adding picks a platform; editing keeps the connection's own (its mode has its own switch on the card). */
type FormTarget =
  | { kind: 'add'; initialPlatform: Platform; initialPath?: string | undefined }
  | { kind: 'edit'; connection: ConnectionView };

function defaultName(platform: Platform, values: Record<string, string>, label: string): string {
  if (platform === 'folder' && values.path)
    return (
      values.path
        .replace(/[\\/]+$/, '')
        .split(/[\\/]/)
        .pop() || label
    );
  return label;
}

/** An edit starts from the saved non-secret fields; secret fields start empty (their values never reach the renderer). */
function savedValues(connection: ConnectionView): Record<string, string> {
  const values: Record<string, string> = {};
  for (const field of PLATFORM_INFO[connection.platform].fields) {
    const value = connection.config[field.key];
    if (!field.secret && value !== undefined) values[field.key] = String(value);
  }
  return values;
}

/** Add a connection: the platform's own fields (PLATFORM_INFO), a Test button, and the RAG switch. */
export function AddConnectionForm({
  initialPlatform,
  initialPath,
  onClose,
}: {
  initialPlatform: Platform;
  /** A folder dropped on the view or picked beforehand. */
  initialPath?: string;
  onClose: () => void;
}) {
  return <ConnectionForm target={{ kind: 'add', initialPlatform, initialPath }} onClose={onClose} />;
}

/** Edit a saved connection in the same form: a secret left empty keeps its stored value. */
export function EditConnectionForm({
  connection,
  onClose,
}: {
  connection: ConnectionView;
  onClose: () => void;
}) {
  return <ConnectionForm target={{ kind: 'edit', connection }} onClose={onClose} />;
}

function ConnectionForm({ target, onClose }: { target: FormTarget; onClose: () => void }) {
  const t = useT();
  const language = useLanguage();
  const actions = useAppShallow((state) => ({
    addConnection: state.addConnection,
    testNewConnection: state.testNewConnection,
    updateConnection: state.updateConnection,
    testConnectionUpdate: state.testConnectionUpdate,
  }));
  const editing = target.kind === 'edit' ? target.connection : null;
  const [platform, setPlatform] = useState<Platform>(
    editing?.platform ?? (target.kind === 'add' ? target.initialPlatform : 'folder'),
  );
  const [name, setName] = useState(editing?.name ?? '');
  const [values, setValues] = useState<Record<string, string>>(() =>
    editing
      ? savedValues(editing)
      : target.kind === 'add' && target.initialPath
        ? { path: target.initialPath }
        : {},
  );
  const [rag, setRag] = useState(true);
  const [test, setTest] = useState<TestState>({ kind: 'idle' });
  /** A field the form itself found missing, or core's refusal of the save. */
  const [error, setError] = useState<string | AppErrorData | null>(null);
  const [saving, setSaving] = useState(false);
  /** Stored optional secrets the user chose to remove (sent as `clearSecrets`). */
  const [clearing, setClearing] = useState<string[]>([]);
  const info = PLATFORM_INFO[platform];
  const stored = (key: string) => editing?.secretFields.includes(key) ?? false;
  const title = editing ? t('edit.title', { name: editing.name }) : t('add.title');
  const advancedFields = info.fields.filter((field) => field.advanced);
  // Open at first when an edit starts with an advanced value set; afterwards the user decides.
  const [advancedOpen] = useState(() => advancedFields.some((field) => values[field.key]?.trim()));

  function checked(): boolean {
    const missing = info.fields.find(
      (field) => field.required && !values[field.key]?.trim() && !(field.secret && stored(field.key)),
    );
    // A group such as DingTalk's userId / unionId: one of them is enough, none is an error.
    const group = info.requireOneOf?.find((keys) =>
      keys.every((key) => !values[key]?.trim() && !stored(key)),
    );
    const groupLabels = info.fields
      .filter((field) => group?.includes(field.key))
      .map((field) => field.label[language]);
    setError(
      missing
        ? `${missing.label[language]}: ${t('add.required')}`
        : group
          ? t('add.requiredOneOf', { fields: groupLabels.join(' / ') })
          : null,
    );
    return !missing && !group;
  }

  function draft(): NewConnection {
    const config: NewConnection['config'] = {};
    const secrets: Record<string, string> = {};
    for (const field of info.fields) {
      const value = values[field.key]?.trim();
      if (field.type === 'boolean') config[field.key] = value === 'true';
      else if (value) (field.secret ? secrets : config)[field.key] = value;
    }
    return {
      platform,
      name: name.trim() || defaultName(platform, values, info.label[language]),
      mode: rag ? 'rag' : 'direct',
      config,
      secrets,
    };
  }

  /** Every non-secret field is sent ("" clears an optional one); only secrets typed in are. */
  function edit(connection: ConnectionView): ConnectionUpdate {
    const config: NonNullable<ConnectionUpdate['config']> = {};
    const secrets: Record<string, string> = {};
    for (const field of info.fields) {
      const value = values[field.key]?.trim() ?? '';
      if (field.type === 'boolean') config[field.key] = value === 'true';
      else if (!field.secret) config[field.key] = value;
      else if (value && !clearing.includes(field.key)) secrets[field.key] = value;
    }
    const update: ConnectionUpdate = {
      id: connection.id,
      name: name.trim() || connection.name,
      config,
      secrets,
    };
    if (clearing.length > 0) update.clearSecrets = clearing;
    return update;
  }

  async function onTest() {
    if (!checked()) return;
    setTest({ kind: 'testing' });
    setTest({
      kind: 'done',
      result: editing
        ? await actions.testConnectionUpdate(edit(editing))
        : await actions.testNewConnection(draft()),
    });
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!checked()) return;
    setSaving(true);
    const result = editing
      ? await actions.updateConnection(edit(editing))
      : await actions.addConnection(draft());
    setSaving(false);
    if (result.ok) onClose();
    else setError(result.error);
  }

  function renderField(field: CredentialField) {
    if (field.type === 'boolean') {
      return (
        <label className="switch" key={`${platform}-${field.key}`}>
          <input
            type="checkbox"
            checked={values[field.key] === 'true'}
            onChange={(event) => setValues({ ...values, [field.key]: event.target.checked ? 'true' : '' })}
          />
          <span>{field.label[language]}</span>
        </label>
      );
    }
    const removing = clearing.includes(field.key);
    return (
      <Fragment key={`${platform}-${field.key}`}>
        <label className="field">
          <span>
            {field.label[language]}
            {field.required && !(field.secret && stored(field.key)) && <em className="required"> *</em>}
          </span>
          <input
            type={field.secret ? 'password' : 'text'}
            autoComplete="off"
            spellCheck={false}
            disabled={removing}
            placeholder={
              removing
                ? t('edit.secretRemoved')
                : field.secret && stored(field.key)
                  ? t('edit.secretStored')
                  : (field.placeholder ?? (field.key === 'baseUrl' ? (info.defaultBaseUrl ?? '') : ''))
            }
            value={removing ? '' : (values[field.key] ?? '')}
            onChange={(event) => setValues({ ...values, [field.key]: event.target.value })}
          />
          {field.hint && <small className="hint">{field.hint[language]}</small>}
          {field.secret && <SecretStorageNote />}
        </label>
        {platform === 'folder' && field.key === 'path' && (
          <FolderPathTools
            path={values.path ?? ''}
            exclude={values.exclude ?? ''}
            onPath={(path) => setValues((current) => ({ ...current, path }))}
          />
        )}
        {field.secret && !field.required && stored(field.key) && (
          // Only an optional secret can go: a required one can be replaced, not removed.
          <label className="switch clear-secret">
            <input
              type="checkbox"
              checked={removing}
              onChange={(event) =>
                setClearing(
                  event.target.checked
                    ? [...clearing, field.key]
                    : clearing.filter((key) => key !== field.key),
                )
              }
            />
            <span>{t('edit.clearSecret')}</span>
          </label>
        )}
      </Fragment>
    );
  }

  return (
    <form
      className="panel add-form"
      onSubmit={(event) => void onSubmit(event)}
      aria-label={title}
      onKeyDown={(event) => {
        // Escape leaves the form as Cancel does (never while an IME is composing Chinese text).
        if (event.key === 'Escape' && !event.nativeEvent.isComposing) {
          event.preventDefault();
          onClose();
        }
      }}
    >
      <h2>{title}</h2>
      {!editing && (
        <fieldset className="platform-picker">
          <legend>{t('add.platform')}</legend>
          {PLATFORMS.map((candidate) => (
            <label
              key={candidate}
              className={candidate === platform ? 'platform-tile selected' : 'platform-tile'}
            >
              <input
                type="radio"
                name="platform"
                value={candidate}
                checked={candidate === platform}
                onChange={() => {
                  setPlatform(candidate);
                  setValues({});
                  setTest({ kind: 'idle' });
                  setError(null);
                }}
              />
              <span>{PLATFORM_INFO[candidate].label[language]}</span>
              {PLATFORM_INFO[candidate].experimental && (
                <small className="tag">{t('card.experimental')}</small>
              )}
            </label>
          ))}
        </fieldset>
      )}
      {info.note && <p className="hint">{info.note[language]}</p>}
      <label className="field">
        <span>{t('add.name')}</span>
        <input
          value={name}
          placeholder={t('add.namePlaceholder')}
          onChange={(event) => setName(event.target.value)}
          maxLength={CONNECTION_NAME_MAX_LENGTH}
        />
      </label>
      {info.fields.filter((field) => !field.advanced).map(renderField)}
      {advancedFields.length > 0 && (
        <details className="advanced-fields" open={advancedOpen}>
          <summary>{t('add.advanced')}</summary>
          {advancedFields.map(renderField)}
        </details>
      )}
      {!editing && (
        <label className="switch">
          <input type="checkbox" checked={rag} onChange={(event) => setRag(event.target.checked)} />
          <span>{t('card.rag')}</span>
        </label>
      )}
      {!editing && !rag && <p className="hint">{t('card.ragHint')}</p>}
      {test.kind === 'done' && (
        <p className={test.result.ok ? 'test-result ok' : 'test-result failed'} role="status">
          {test.result.ok ? (
            <>
              ✓ <SuccessMessage success={test.result.value} />
            </>
          ) : (
            <>
              ✗ <ErrorMessage error={test.result.error} />
            </>
          )}
        </p>
      )}
      {error && (
        <p className="form-error" role="alert">
          {typeof error === 'string' ? error : <ErrorMessage error={error} />}
        </p>
      )}
      <div className="actions">
        <button
          type="button"
          className="button"
          onClick={() => void onTest()}
          disabled={test.kind === 'testing'}
        >
          {test.kind === 'testing' ? t('add.testing') : t('add.test')}
        </button>
        <span className="spacer" />
        <button type="button" className="button quiet" onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="button primary" disabled={saving}>
          {editing ? t('edit.save') : t('add.save')}
        </button>
      </div>
    </form>
  );
}
