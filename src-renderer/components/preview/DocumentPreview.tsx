import { useEffect, useMemo, useRef } from 'react';
import Markdown, { defaultUrlTransform, type Components } from 'react-markdown';
import { formatDateTime } from '../../i18n/i18n';
import { useLanguage, useT } from '../../hooks/use-t';
import { useApp } from '../../store/store-context';
import type { PreviewState } from '../../store/slices/preview-slice';
import { ErrorMessage } from '../common/ErrorMessage';
import { MARKDOWN_PLUGINS } from '../common/markdown-plugins';
import { OpenOriginal } from '../common/OpenOriginal';
import { KnowledgeBaseBadge, PlatformBadge } from '../common/PlatformBadge';
import { rehypeMarkTerms } from './mark-terms';
import { previewSegments } from './preview-segments';

function useComponents(): Components {
  const open = useApp((state) => state.openLink);
  return useMemo<Components>(
    () => ({
      // Links leave through the checked path, never by navigating the app; images show their alt text.
      a({ href, children }) {
        if (!href || !/^https?:\/\//i.test(href)) return <span>{children}</span>;
        return (
          <button type="button" className="link-button inline" title={href} onClick={() => void open(href)}>
            {children}
          </button>
        );
      },
      img: ({ alt }) => (alt ? <span className="muted">[{alt}]</span> : null),
    }),
    [open],
  );
}

/**
 * Scrolls the preview to a passage: to the nearest heading above its first marked term (or above the
 * passage when no term is marked), at the top, so "Show in document" lands on the heading the card
 * named rather than below it; the passage itself when no heading is above it or the heading is more
 * than a screen above the term.
 */
export function scrollToPassage(passage: HTMLElement): void {
  const body = passage.closest<HTMLElement>('.preview-document') ?? passage;
  const anchor =
    passage.querySelector('mark') ?? passage.querySelector('p, li, pre, table, blockquote') ?? passage;
  const before = (node: Node) =>
    node === anchor || (node.compareDocumentPosition(anchor) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
  const heading = [...body.querySelectorAll<HTMLElement>('h1, h2, h3, h4, h5, h6')].filter(before).at(-1);
  const screen = body.clientHeight || globalThis.innerHeight || 0;
  const gap = heading ? anchor.getBoundingClientRect().top - heading.getBoundingClientRect().top : 0;
  // jsdom has no scrollIntoView; browsers and Electron do.
  if (heading && (screen === 0 || gap < screen * 0.8)) heading.scrollIntoView?.({ block: 'start' });
  else passage.scrollIntoView?.({ block: anchor === passage ? 'start' : 'center' });
}

function PreviewBody({ preview }: { preview: PreviewState }) {
  const t = useT();
  const components = useComponents();
  const document = preview.document!;
  const { passage, terms } = preview.target;
  const segments = useMemo(
    () => previewSegments(document.markdown, document.chunks, passage),
    [document, passage],
  );
  const rehypePlugins = useMemo(
    () => [[rehypeMarkTerms, { terms }] as [typeof rehypeMarkTerms, { terms: string[] }]],
    [terms],
  );
  const marked = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (marked.current) scrollToPassage(marked.current);
  }, [segments]);
  let firstTarget = true;
  return (
    <div className="preview-document markdown-body">
      {segments.map((segment) => {
        const body = (
          <Markdown
            skipHtml
            urlTransform={defaultUrlTransform}
            remarkPlugins={MARKDOWN_PLUGINS}
            rehypePlugins={rehypePlugins}
            components={components}
          >
            {segment.markdown}
          </Markdown>
        );
        if (!segment.target) return <div key={segment.start}>{body}</div>;
        const first = firstTarget;
        firstTarget = false;
        return (
          <div
            key={segment.start}
            ref={first ? marked : undefined}
            className="passage-mark"
            data-testid={first ? 'preview-passage' : undefined}
            aria-label={first ? t('preview.passage') : undefined}
            role={first ? 'region' : undefined}
          >
            {body}
          </div>
        );
      })}
    </div>
  );
}

/**
 * A document from the index, rendered, with the passage it was opened for marked and scrolled into
 * view. A modal <dialog>: the page behind is inert, Tab stays inside, Escape closes it, and focus
 * goes back to what opened it. Works offline: nothing is fetched from the platform.
 */
export function DocumentPreview() {
  const t = useT();
  const language = useLanguage();
  const preview = useApp((state) => state.preview);
  const close = useApp((state) => state.closePreview);
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const open = preview !== null;

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      opener.current = globalThis.document.activeElement;
      if (typeof element.showModal === 'function') element.showModal();
      else element.setAttribute('open', '');
    } else if (!open && element.open) {
      if (typeof element.close === 'function') element.close();
      else element.removeAttribute('open');
      (opener.current as HTMLElement | null)?.focus?.();
    }
  }, [open]);

  const document = preview?.document ?? null;
  const title = document?.title ?? preview?.target.title ?? '';
  return (
    <dialog
      ref={dialog}
      className="preview"
      aria-labelledby="preview-title"
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
      onClick={(event) => {
        // A click on the backdrop (the dialog element itself, outside its panel) closes it.
        if (event.target === dialog.current) close();
      }}
    >
      {preview && (
        <div className="preview-panel">
          <header className="preview-header">
            <div className="preview-heading">
              <h2 id="preview-title">{title}</h2>
              {document && (
                <p className="preview-meta muted small">
                  <PlatformBadge platform={document.platform} />
                  <KnowledgeBaseBadge name={document.knowledgeBase} />
                  <span>
                    {t('preview.indexed', {
                      date: formatDateTime(language, document.updatedAt ?? document.indexedAt, '—'),
                    })}
                  </span>
                </p>
              )}
            </div>
            <span className="spacer" />
            {document && (
              <OpenOriginal
                inPreview
                original={{
                  url: document.url,
                  documentId: document.id,
                  title: document.title,
                  connectionId: document.connectionId,
                  externalId: document.externalId,
                }}
              />
            )}
            <button
              type="button"
              className="button quiet icon-button"
              aria-label={t('preview.close')}
              title={t('preview.close')}
              onClick={close}
            >
              ×
            </button>
          </header>
          {preview.status === 'loading' && (
            <p className="muted" role="status">
              {t('preview.loading')}
            </p>
          )}
          {preview.status === 'failed' && preview.error && (
            <p className="form-error" role="alert">
              <ErrorMessage error={preview.error} lead={t('preview.failed')} />
            </p>
          )}
          {preview.status === 'ready' && <PreviewBody preview={preview} />}
        </div>
      )}
    </dialog>
  );
}
