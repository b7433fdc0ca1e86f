import type { AppErrorData } from '@shared/errors';
import type { DocumentView } from '@shared/models';
import type { GetState, SetState, StoreDeps } from '../store-types';

/** What the preview was opened for: a document, the passage to mark in it, the words to light up. */
export interface PreviewTarget {
  documentId: number;
  /** A hit's or citation's offsets into the document's Markdown; null opens at the top. */
  passage: { charStart: number; charEnd: number } | null;
  /** The query (or question) terms to highlight. */
  terms: string[];
  /** Shown while the document loads. */
  title: string;
}

export interface PreviewState {
  target: PreviewTarget;
  status: 'loading' | 'ready' | 'failed';
  document: DocumentView | null;
  error: AppErrorData | null;
}

export interface PreviewSlice {
  preview: PreviewState | null;
  /** Reads the document from the index (offline) and shows it with the passage marked. */
  openPreview(target: PreviewTarget): Promise<void>;
  closePreview(): void;
}

export function createPreviewSlice(set: SetState, get: GetState, { api }: StoreDeps): PreviewSlice {
  let latest = 0;
  return {
    preview: null,
    async openPreview(target) {
      const request = ++latest;
      const current = get().preview;
      // The same document again (another passage of it): no reload.
      if (current?.document && current.document.id === target.documentId) {
        set({ preview: { ...current, target } });
        return;
      }
      set({ preview: { target, status: 'loading', document: null, error: null } });
      const result = await api.documents.get({ documentId: target.documentId });
      if (request !== latest || get().preview?.target !== target) return;
      set({
        preview: result.ok
          ? { target, status: 'ready', document: result.value, error: null }
          : { target, status: 'failed', document: null, error: result.error },
      });
    },
    closePreview() {
      latest += 1;
      set({ preview: null });
    },
  };
}
