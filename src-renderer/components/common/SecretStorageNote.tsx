import { useT } from '../../hooks/use-t';
import { useApp } from '../../store/store-context';

/**
 * Where a secret typed here goes, said plainly: encrypted only when the keychain holds it; the
 * fallback file is named as what it is, with its path.
 */
export function SecretStorageNote({ className = 'hint' }: { className?: string }) {
  const t = useT();
  const storage = useApp((state) => state.secretStorage);
  const text =
    storage.kind === 'keychain'
      ? t('secrets.keychain')
      : storage.kind === 'plain-file'
        ? t('secrets.plainFile', { path: storage.path ?? '' })
        : storage.kind === 'unavailable'
          ? t('secrets.unavailable')
          : t('secrets.memory');
  return (
    <small className={className} data-secret-storage={storage.kind}>
      {text}
    </small>
  );
}
