import type { ChunkLocation } from '@shared/models';
import { useT, type Translate } from '../../i18n/i18n';
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

interface OpenOriginalProps {
  url: string | null;
  /** The passage's place in the file: a PDF opens at its page. */
  location?: ChunkLocation | null;
  /** For local-folder notes: the connection and the note's path, to offer "Open in Obsidian" in a vault. */
  connectionId?: string;
  externalId?: string;
}

/** "Open original": asks core whether the link may be opened, then the shell opens it. */
export function OpenOriginal({ url, location, connectionId, externalId }: OpenOriginalProps) {
  const t = useT();
  const open = useOpenExternal();
  const vault = useApp((state) =>
    connectionId
      ? (state.connections.find((c) => c.id === connectionId)?.folder?.obsidianVault ?? null)
      : null,
  );
  const page = location?.kind === 'page' ? location.page : undefined;
  const note = vault && externalId && /\.md$/i.test(externalId) ? obsidianLink(vault, externalId) : null;
  return (
    <>
      {note && (
        <button type="button" className="link-button" title={note} onClick={() => void open(note)}>
          {t('common.openInObsidian')} ↗
        </button>
      )}
      {url && (
        <button type="button" className="link-button" title={url} onClick={() => void open(url, page)}>
          {page ? t('common.openOriginalAt', { page }) : t('common.openOriginal')} ↗
        </button>
      )}
    </>
  );
}

/** obsidian://open for a note of a vault (https://help.obsidian.md/Extending+Obsidian/Obsidian+URI). */
export function obsidianLink(vault: string, externalId: string): string {
  return `obsidian://open?vault=${encodeURIComponent(vault)}&file=${encodeURIComponent(externalId.replace(/\.md$/i, ''))}`;
}
