import { Fragment } from 'react';
import { PLATFORM_INFO, type CredentialField } from '@shared/platforms';
import { useLanguage, useT } from '../../hooks/use-t';
import { SecretStorageNote } from '../common/SecretStorageNote';
import type { ConnectionDraft } from './connection-draft';
import { FolderPathTools } from './FolderPathTools';

/**
 * One of a platform's fields in the connection form: a switch for a boolean, else a text or
 * password input with its hint; a folder path gets its tools, a stored optional secret a "Remove".
 */
export function ConnectionField({
  field,
  draft,
  stored,
  onChange,
}: {
  field: CredentialField;
  draft: ConnectionDraft;
  /** The saved connection has a value for this secret (an edit). */
  stored: boolean;
  onChange: (update: (draft: ConnectionDraft) => ConnectionDraft) => void;
}) {
  const t = useT();
  const language = useLanguage();
  const { platform, values, clearing } = draft;
  const setValue = (key: string, value: string) =>
    onChange((current) => ({ ...current, values: { ...current.values, [key]: value } }));
  if (field.type === 'boolean') {
    return (
      <label className="switch">
        <input
          type="checkbox"
          checked={values[field.key] === 'true'}
          onChange={(event) => setValue(field.key, event.target.checked ? 'true' : '')}
        />
        <span>{field.label[language]}</span>
      </label>
    );
  }
  const removing = clearing.includes(field.key);
  const placeholder = removing
    ? t('edit.secretRemoved')
    : field.secret && stored
      ? t('edit.secretStored')
      : (field.placeholder ??
        (field.key === 'baseUrl' ? (PLATFORM_INFO[platform].defaultBaseUrl ?? '') : ''));
  return (
    <Fragment>
      <label className="field">
        <span>
          {field.label[language]}
          {field.required && !(field.secret && stored) && <em className="required"> *</em>}
        </span>
        <input
          type={field.secret ? 'password' : 'text'}
          autoComplete="off"
          spellCheck={false}
          disabled={removing}
          placeholder={placeholder}
          value={removing ? '' : (values[field.key] ?? '')}
          onChange={(event) => setValue(field.key, event.target.value)}
        />
        {field.hint && <small className="hint">{field.hint[language]}</small>}
        {field.secret && <SecretStorageNote />}
      </label>
      {platform === 'folder' && field.key === 'path' && (
        <FolderPathTools
          path={values.path ?? ''}
          exclude={values.exclude ?? ''}
          onPath={(path) => setValue('path', path)}
        />
      )}
      {field.secret && !field.required && stored && (
        // Only an optional secret can go: a required one can be replaced, not removed.
        <label className="switch clear-secret">
          <input
            type="checkbox"
            checked={removing}
            onChange={(event) =>
              onChange((current) => ({
                ...current,
                clearing: event.target.checked
                  ? [...current.clearing, field.key]
                  : current.clearing.filter((key) => key !== field.key),
              }))
            }
          />
          <span>{t('edit.clearSecret')}</span>
        </label>
      )}
    </Fragment>
  );
}
