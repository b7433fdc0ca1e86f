import { useState, type FormEvent } from 'react';
import type { AppErrorData, Result } from '@shared/errors';
import {
  CONNECTION_NAME_MAX_LENGTH,
  PLATFORMS,
  type ConnectionView,
  type CoreMessage,
  type Platform,
} from '@shared/models';
import { PLATFORM_INFO, type CredentialField } from '@shared/platforms';
import { useLanguage, useT } from '../../hooks/use-t';
import {
  connectionUpdate,
  draftProblem,
  editDraft,
  newConnection,
  newDraft,
  searchedLive,
  testKey,
  withPlatform,
  type ConnectionDraft,
} from './connection-draft';
import { ConnectionField } from './ConnectionField';
import { useAppShallow } from '../../store/store-context';
import { ErrorMessage } from '../common/ErrorMessage';
import { SuccessMessage } from '../common/SuccessMessage';

type TestState = { kind: 'idle' } | { kind: 'testing' } | { kind: 'done'; result: Result<CoreMessage> };

/** Adding picks a platform; editing keeps the connection's own (its mode has its own switch on the card). */
type FormTarget =
  | { kind: 'add'; initialPlatform: Platform; initialPath?: string | undefined }
  | { kind: 'edit'; connection: ConnectionView };

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
  const [draft, setDraft] = useState<ConnectionDraft>(() =>
    target.kind === 'edit'
      ? editDraft(target.connection)
      : newDraft(target.initialPlatform, target.initialPath),
  );
  const change = (patch: Partial<ConnectionDraft>) => setDraft((current) => ({ ...current, ...patch }));
  // A Test's outcome holds for the values it tried: changing a field forgets it.
  const [tested, setTested] = useState<{ key: string; state: TestState }>({
    key: '',
    state: { kind: 'idle' },
  });
  const test: TestState = tested.key === testKey(draft) ? tested.state : { kind: 'idle' };
  const setTest = (state: TestState) => setTested({ key: testKey(draft), state });
  const testFailed = test.kind === 'done' && !test.result.ok;
  /** A field the form itself found missing, or core's refusal of the save. */
  const [error, setError] = useState<string | AppErrorData | null>(null);
  const [saving, setSaving] = useState(false);
  const { platform, values } = draft;
  const info = PLATFORM_INFO[platform];
  const storedSecrets = editing?.secretFields ?? [];
  const stored = (key: string) => storedSecrets.includes(key);
  const title = editing ? t('edit.title', { name: editing.name }) : t('add.title');
  const advancedFields = info.fields.filter((field) => field.advanced);
  const renderField = (field: CredentialField) => (
    <ConnectionField
      key={`${platform}-${field.key}`}
      field={field}
      draft={draft}
      stored={stored(field.key)}
      onChange={setDraft}
    />
  );
  // Open at first when an edit starts with an advanced value set; afterwards the user decides.
  const [advancedOpen] = useState(() => advancedFields.some((field) => values[field.key]?.trim()));

  function checked(): boolean {
    const problem = draftProblem(draft, storedSecrets);
    const label = (key: string) => info.fields.find((field) => field.key === key)?.label[language] ?? key;
    setError(
      problem?.kind === 'required'
        ? `${label(problem.field)}: ${t('add.required')}`
        : problem?.kind === 'oneOf'
          ? t('add.requiredOneOf', { fields: problem.fields.map(label).join(' / ') })
          : null,
    );
    return problem === null;
  }

  async function runTest(): Promise<boolean> {
    setTest({ kind: 'testing' });
    const result = editing
      ? await actions.testConnectionUpdate(connectionUpdate(draft, editing))
      : await actions.testNewConnection(newConnection(draft, language));
    setTest({ kind: 'done', result });
    return result.ok;
  }

  async function onTest() {
    if (checked()) await runTest();
  }

  /**
   * Add (or Save) tests first unless these values already passed; a failed Test stops it, and the
   * button then says "Add anyway" for someone who will fix the source later (a server down for now).
   */
  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!checked()) return;
    // An edit of the name alone changes nothing a Test would try.
    const accessChanged = !editing || testKey(draft) !== testKey(editDraft(editing));
    if (accessChanged && test.kind === 'idle' && !(await runTest())) return;
    setSaving(true);
    const result = editing
      ? await actions.updateConnection(connectionUpdate(draft, editing))
      : await actions.addConnection(newConnection(draft, language));
    setSaving(false);
    if (result.ok) onClose();
    else setError(result.error);
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
                  setDraft((current) => withPlatform(current, candidate));
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
          value={draft.name}
          placeholder={t('add.namePlaceholder')}
          onChange={(event) => change({ name: event.target.value })}
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
      {!editing && searchedLive(platform) && (
        <label className="switch">
          <input
            type="checkbox"
            checked={draft.rag}
            onChange={(event) => change({ rag: event.target.checked })}
          />
          <span>{t('card.rag')}</span>
        </label>
      )}
      {!editing && searchedLive(platform) && !draft.rag && <p className="hint">{t('card.ragHint')}</p>}
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
          disabled={test.kind === 'testing' || saving}
        >
          {test.kind === 'testing' ? t('add.testing') : t('add.test')}
        </button>
        <span className="spacer" />
        <button type="button" className="button quiet" onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button
          type="submit"
          className={testFailed ? 'button danger-quiet' : 'button primary'}
          disabled={saving || test.kind === 'testing'}
        >
          {testFailed
            ? t(editing ? 'edit.saveAnyway' : 'add.saveAnyway')
            : t(editing ? 'edit.save' : 'add.save')}
        </button>
      </div>
    </form>
  );
}
