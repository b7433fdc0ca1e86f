import type { ChunkLocation } from '@shared/models';
import { type Translate } from '../../i18n/i18n';
import { useT } from '../../hooks/use-t';
import { isWebLink, type OriginalRef } from '../../store/slices/ui-slice';
import { useApp } from '../../store/store-context';
import { useOpenExternal } from './use-open-external';

/** "p. 12", "pp. 12–13", "slide 3", "Budget, rows 2–31" in the UI language. */
export function locationText(t: Translate, location: ChunkLocation): string {
  switch (location.kind) {
    case 'page':
      return location.endPage && location.endPage > location.page
        ? t('location.pages', { from: location.page, to: location.endPage })
        : t('location.page', { page: location.page });
    case 'slide':
      return location.endSlide && location.endSlide > location.slide
        ? t('location.slides', { from: location.slide, to: location.endSlide })
        : t('location.slide', { slide: location.slide });
    case 'rows':
      return location.lastRow > location.firstRow
        ? t('location.rows', { sheet: location.sheet, from: location.firstRow, to: location.lastRow })
        : t('location.row', { sheet: location.sheet, row: location.firstRow });
  }
}

/** Where the passage sits in its file, as a quiet label beside "Open original". */
export function LocationLabel({ location }: { location?: ChunkLocation | null }) {
  const t = useT();
  if (!location) return null;
  return <span className="location-label">{locationText(t, location)}</span>;
}

/**
 * "Open original": desktop, the OS opens the link or file (after core's check; a PDF at the passage's
 * page); browser host, a web link opens in a new tab and a local file in the in-app preview. Inside
 * that preview, a local file in the browser host has nowhere further to go, so the button is not
 * shown there. A note of a connected Obsidian vault also offers "Open in Obsidian".
 */
export function OpenOriginal({
  original,
  inPreview = false,
}: {
  original: OriginalRef;
  inPreview?: boolean;
}) {
  const t = useT();
  const host = useApp((state) => state.host);
  const openOriginal = useApp((state) => state.openOriginal);
  const revealFile = useApp((state) => state.revealFile);
  const open = useOpenExternal();
  const { connectionId, externalId } = original;
  const vault = useApp((state) =>
    connectionId
      ? (state.connections.find((c) => c.id === connectionId)?.folder?.obsidianVault ?? null)
      : null,
  );
  const note = vault && externalId && /\.md$/i.test(externalId) ? obsidianLink(vault, externalId) : null;
  const page = original.location?.kind === 'page' ? original.location.page : undefined;
  const web = isWebLink(original.url);
  const showOriginal =
    (original.url !== null || original.documentId !== null) &&
    !(host === 'browser' && !web && (inPreview || original.documentId === null));
  // The page only means something where the file itself opens (desktop); the preview marks the passage.
  const atPage = page !== undefined && !(host === 'browser' && !web);
  // A local file on the desktop can be shown in its folder (the browser host's file manager is not the user's).
  const localFile = host === 'desktop' && !web && original.url !== null && original.documentId !== null;
  return (
    <>
      {localFile && (
        <button
          type="button"
          className="link-button"
          title={original.url ?? undefined}
          onClick={() => void revealFile(original.url!)}
        >
          {t('common.showInFolder')}
        </button>
      )}
      {note && (
        <button type="button" className="link-button" title={note} onClick={() => void open(note)}>
          {t('common.openInObsidian')} <span aria-hidden="true">↗</span>
        </button>
      )}
      {showOriginal && (
        <button
          type="button"
          className="link-button"
          title={original.url ?? undefined}
          onClick={() => void openOriginal(original)}
        >
          {atPage ? t('common.openOriginalAt', { page }) : t('common.openOriginal')}{' '}
          <span aria-hidden="true">{web ? '↗' : '›'}</span>
        </button>
      )}
    </>
  );
}

/** obsidian://open for a note of a vault (https://help.obsidian.md/Extending+Obsidian/Obsidian+URI). */
export function obsidianLink(vault: string, externalId: string): string {
  return `obsidian://open?vault=${encodeURIComponent(vault)}&file=${encodeURIComponent(externalId.replace(/\.md$/i, ''))}`;
}
