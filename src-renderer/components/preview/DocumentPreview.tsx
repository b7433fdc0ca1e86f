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
import { useOpenExternal } from '../common/use-open-external';
import { rehypeMarkTerms } from './mark-terms';
import { previewSegments } from './preview-segments';

function useComponents(): Components {
  const open = useOpenExternal();
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
    // jsdom has no scrollIntoView; browsers and Electron do.
    marked.current?.scrollIntoView?.({ block: 'center' });
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
