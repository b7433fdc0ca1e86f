import { useState } from 'react';
import { useT } from '../../hooks/use-t';
import { isWebLink } from '../../store/slices/ui-slice';

/**
 * "Copy link" for a passage: its web address (a platform page, with the section's anchor when the
 * source gives one), or "Copy path" for a local file (with its section's #anchor for Markdown), so
 * a result can be pasted into a note, a chat or a ticket. Nothing for a hit with no address.
 */
export function CopyLink({ url }: { url: string | null }) {
  const t = useT();
  const [copied, setCopied] = useState(false);
  if (!url) return null;
  const web = isWebLink(url);
  return (
    <button
      type="button"
      className="link-button small"
      title={url}
      onClick={() =>
        void navigator.clipboard?.writeText(url.trim()).then(
          () => setCopied(true),
          () => setCopied(false),
        )
      }
    >
      {copied ? t('chat.copied') : web ? t('search.copyLink') : t('search.copyPath')}
    </button>
  );
}
