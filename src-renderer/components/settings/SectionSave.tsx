import { useT } from '../../hooks/use-t';
import { useApp } from '../../store/store-context';
import { sectionPatch, type SettingsSection } from '../../store/settings-draft';

/** A settings section's own Save, and a word when it holds changes not saved yet. */
export function SectionSave({ section }: { section: SettingsSection }) {
  const t = useT();
  const dirty = useApp(
    (state) => !!state.settings && sectionPatch(state.settings, state.settingsEdits, section) !== null,
  );
  const save = useApp((state) => state.saveSettingsSection);
  return (
    <div className="actions section-save">
      {dirty && (
        <span className="muted small" role="status">
          {t('settings.unsaved')}
        </span>
      )}
      <span className="spacer" />
      <button type="button" className="button primary" disabled={!dirty} onClick={() => void save(section)}>
        {t('common.save')}
      </button>
    </div>
  );
}
