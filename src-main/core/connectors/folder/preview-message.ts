/**
 * "Test connection" for a folder: the counts as a sentence (CLI, logs) and as params (`total`,
 * `capped` 0/1, `kind.<kind>`), so the UI says them in its language with its own list punctuation.
 */
import type { CoreMessage, FileKind, FolderPreview } from '@shared/models';

const KIND_LABELS: Record<FileKind, string> = {
  markdown: 'Markdown',
  text: 'text',
  pdf: 'PDF',
  word: 'Word',
  powerpoint: 'PowerPoint',
  spreadsheet: 'Excel/CSV',
  html: 'HTML',
  epub: 'EPUB',
};

export function previewMessage(name: string, preview: FolderPreview): CoreMessage {
  const counted = Object.entries(preview.counts).sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0));
  const kinds = counted.map(([kind, count]) => `${count} ${KIND_LABELS[kind as FileKind]}`).join(', ');
  const total = `${preview.total.toLocaleString('en')}${preview.capped ? '+' : ''}`;
  const params: CoreMessage['params'] = {
    name: name,
    total: preview.total,
    capped: preview.capped ? 1 : 0,
  };
  for (const [kind, count] of counted) params[`kind.${kind}`] = count ?? 0;
  return preview.total === 0
    ? {
        message: `Folder "${name}" is readable but holds no files Cairn reads yet (Markdown, text, PDF, Word, PowerPoint, Excel/CSV, HTML, EPUB).`,
        code: 'connection.folderEmpty',
        params,
      }
    : {
        message: `Folder "${name}" is readable: ${total} file${preview.total === 1 ? '' : 's'} to index (${kinds}).`,
        code: 'connection.folderReadable',
        params,
      };
}
