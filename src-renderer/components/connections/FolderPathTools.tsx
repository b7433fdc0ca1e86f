import { useEffect, useState } from 'react';
import type { CairnPreloadGlobals } from '@shared/bridge';
import type { FolderPreview } from '@shared/models';
import { FILE_KINDS } from '@shared/models';
import { formatNumber, type MessageKey } from '../../i18n/i18n';
import { useLanguage, useT } from '../../hooks/use-t';
import { useApp } from '../../store/store-context';

/**
 * Under the folder path field: "Choose folder…" (the native picker, in the desktop app) and what
 * the folder will index, counted by kind, before it is added (`~` works: core expands it).
 */
export function FolderPathTools({
  path,
  exclude,
  onPath,
}: {
  path: string;
  exclude: string;
  onPath: (path: string) => void;
}) {
  const t = useT();
  const language = useLanguage();
  const previewFolder = useApp((state) => state.previewFolder);
  const pickFolder = useApp((state) => state.pickFolder);
  // Only the desktop app has a native picker (its preload also tells dropped paths).
  const [canPick, setCanPick] = useState(
    () => typeof (window as Window & Partial<CairnPreloadGlobals>).pathForFile === 'function',
  );
  const [preview, setPreview] = useState<
    | { kind: 'idle' }
    | { kind: 'counting' }
    | { kind: 'done'; value: FolderPreview }
    | { kind: 'failed'; message: string }
  >({ kind: 'idle' });

  useEffect(() => {
    const trimmed = path.trim();
    if (!trimmed) {
      setPreview({ kind: 'idle' });
      return;
    }
    let current = true;
    setPreview({ kind: 'counting' });
    // Typing a path asks once it pauses, not on every keystroke.
    const timer = setTimeout(() => {
      void previewFolder(trimmed, exclude.trim() || undefined).then((result) => {
        if (!current) return;
        setPreview(
          result.ok
            ? { kind: 'done', value: result.value }
            : { kind: 'failed', message: result.error.message },
        );
      });
    }, 400);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [previewFolder, path, exclude]);

  async function pick() {
    const result = await pickFolder();
    if (!result.ok) {
      setCanPick(false);
      return;
    }
    if (result.value.path) onPath(result.value.path);
  }

  const value = preview.kind === 'done' ? preview.value : null;
  // The language's own list punctuation: "6 Markdown, 1 PDF" / "6 Markdown、1 PDF".
  const list = new Intl.ListFormat(language === 'zh' ? 'zh-CN' : 'en', {
    type: 'conjunction',
    style: 'narrow',
  });
  const kinds = value
    ? list.format(
        FILE_KINDS.filter((kind) => value.counts[kind]).map(
          (kind) => `${formatNumber(language, value.counts[kind]!)} ${t(`kind.${kind}` as MessageKey)}`,
        ),
      )
    : '';
  const skipped = value ? Object.values(value.skipped).reduce<number>((sum, n) => sum + (n ?? 0), 0) : 0;
  return (
    <div className="folder-tools">
      {canPick && (
        <button type="button" className="button" onClick={() => void pick()}>
          {t('folder.browse')}
        </button>
      )}
      <div className="folder-preview" aria-live="polite" data-testid="folder-preview">
        {preview.kind === 'counting' && <p className="muted">{t('folder.previewCounting')}</p>}
        {preview.kind === 'failed' && <p className="muted">{preview.message}</p>}
        {value && (
          <>
            {value.path !== path.trim() && <p className="muted small">{value.path}</p>}
            <p>
              {value.total === 0
                ? t('folder.previewEmpty')
                : t(value.capped ? 'folder.previewCapped' : 'folder.previewTotal', {
                    total: formatNumber(language, value.total),
                    kinds,
                  })}
            </p>
            {skipped > 0 && <p className="muted small">{t('folder.previewSkipped', { count: skipped })}</p>}
            {value.unreadable.length > 0 && (
              <p className="muted small">
                {t('folder.previewUnreadable', { folders: list.format(value.unreadable) })}
              </p>
            )}
            {value.obsidianVault && (
              <p className="muted small">{t('folder.previewVault', { vault: value.obsidianVault })}</p>
            )}
          </>
        )}
      </div>
    </div>
  );
}
