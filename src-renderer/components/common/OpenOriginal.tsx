import { useT } from '../../i18n/i18n';
import { useOpenExternal } from './use-open-external';

/** "Open original": asks core whether the link may be opened, then the shell opens it. */
export function OpenOriginal({ url }: { url: string | null }) {
  const t = useT();
  const open = useOpenExternal();
  if (!url) return null;
  return (
    <button type="button" className="link-button" title={url} onClick={() => void open(url)}>
      {t('common.openOriginal')} ↗
    </button>
  );
}
