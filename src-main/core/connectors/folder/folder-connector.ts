/**
 * A local folder as a knowledge source: Markdown and text (an Obsidian vault works), PDF, Word,
 * PowerPoint, Excel/CSV, HTML and EPUB (extract/extractors.ts). Knowledge base = the folder's
 * name; externalId = POSIX path relative to the root; link = the absolute path; revision =
 * mtime+size as the cheap change hint (the sync engine's content hash stays the truth).
 * Listing never reads file contents; what it will not index it reports with the reason
 * (folder-walk.ts: links leaving the folder, loops, unreadable subfolders, non-UTF-8 names).
 */
import type { Stats } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { basename, isAbsolute, relative, resolve } from 'node:path';
import type { CoreMessage, FolderPreview } from '@shared/models';
import { CairnError, throwIfAborted } from '../../errors';
import type { Logger } from '../../logging/logger';
import { silentLogger } from '../../logging/logger';
import type {
  Connector,
  ConnectorCapabilities,
  ConnectorInit,
  DirectHit,
  DocumentRef,
  FetchedDocument,
  ListingReport,
  ConnectorDescriptor,
} from '../connector';
import { ExclusionRules, parseExcludePatterns } from './exclusions';
import { extensionOf, extractorFor, stripKnownExtension } from './extract/extractors';
import {
  ExtractorWorkers,
  sharedExtractorWorkers,
  type ExtractorWorkerOptions,
} from './extract/extractor-workers';
import { fileFailure, tooMuchText, type ExtractContext } from './extract/extracted';
import { fsReason, walkFolder, type WalkedFile, type WalkOptions } from './folder-walk';
import { searchFolder } from './folder-search';
import { obsidianVaultName } from './obsidian';
import { noteTitlesFor, type NoteFile, type NoteTitles } from './note-titles';
import { expandHome } from './home-path';
import { previewMessage } from './preview-message';
import { openInside } from './read-inside';

export interface FolderConnectorOptions {
  /** The folder to index; made absolute (`~` is expanded by the caller). */
  root: string;
  logger?: Logger;
  /** Extra patterns to leave out, in .gitignore syntax. @default none */
  exclude?: string[];
  /** Files larger than this are skipped with the limit named. @default 20 MiB */
  maxFileBytes?: number;
  /**
   * Files whose text passes this many characters are skipped with the limit named (a zipped
   * workbook or document can hold far more text than its size). @default 20 Mi characters
   */
  maxTextChars?: number;
  /** Direct search reads at most this many files per query. @default 5000 */
  searchMaxFiles?: number;
  /** Direct search skips files larger than this. @default 2 MiB */
  searchMaxFileBytes?: number;
  /** Reads one folder's entries. @default fs.readdir (tests inject an unreadable folder) */
  readDirectory?: WalkOptions['readDirectory'];
  /**
   * The worker thread PDFs are read in (its heap limit, stall timeout), or false to read them on
   * this thread (the bench's comparison). @default the process's shared worker (128 MB heap)
   */
  extractorWorkers?: ExtractorWorkerOptions | false;
}

/** Notes whose `[[links]]` are rendered, and whose front-matter titles those links show. */
const MARKDOWN_EXTENSIONS: ReadonlySet<string> = new Set(['md', 'markdown', 'mdx']);

/**
 * Extensions read in the extract worker (extractor-workers.ts), within its heap limit: PDF.js's
 * garbage stays there, and a package or page that passes the size checks yet needs more memory
 * than the limit (mammoth's document model, turndown's DOM) kills only the worker, never the app.
 */
const ISOLATED_EXTENSIONS: ReadonlySet<string> = new Set([
  'pdf',
  'docx',
  'pptx',
  'xlsx',
  'epub',
  'html',
  'htm',
]);

export class FolderConnector implements Connector {
  readonly platform = 'folder' as const;
  readonly capabilities: ConnectorCapabilities = {
    fullText: true,
    search: true,
    experimental: false,
    limitation: null,
  };
  readonly root: string;
  readonly knowledgeBase: string;
  readonly exclude: string[];
  private readonly logger: Logger;
  private readonly maxFileBytes: number;
  private readonly maxTextChars: number;
  private readonly searchMaxFiles: number;
  private readonly searchMaxFileBytes: number;
  private readonly readDirectory: WalkOptions['readDirectory'];
  private readonly workers: ExtractorWorkers | null;
  /** Workers with limits of this connector's own (tests), ended with it; else the shared one. */
  private readonly ownWorkers: ExtractorWorkers | null;
  /** The Markdown notes the last listing saw, for link titles (note-titles.ts). */
  private notes: Map<string, NoteFile> | null = null;
  private titles: Promise<NoteTitles> | null = null;

  constructor(options: FolderConnectorOptions) {
    this.root = resolve(options.root);
    this.knowledgeBase = basename(this.root) || this.root;
    this.exclude = options.exclude ?? [];
    this.logger = options.logger ?? silentLogger();
    this.maxFileBytes = options.maxFileBytes ?? 20 * 1024 * 1024;
    this.maxTextChars = options.maxTextChars ?? 20 * 1024 * 1024;
    this.searchMaxFiles = options.searchMaxFiles ?? 5000;
    this.searchMaxFileBytes = options.searchMaxFileBytes ?? 2 * 1024 * 1024;
    this.readDirectory = options.readDirectory;
    const workers = options.extractorWorkers;
    this.ownWorkers = workers ? new ExtractorWorkers(workers) : null;
    this.workers = workers === false ? null : (this.ownWorkers ?? sharedExtractorWorkers());
  }

  /** Ends an extract worker of its own (the sync service disposes a connector after each run). */
  async dispose(): Promise<void> {
    await this.ownWorkers?.dispose();
  }

  /** The folder's file counts, as a sentence and as params the UI says in its language. */
  async validate(signal?: AbortSignal): Promise<CoreMessage> {
    return previewMessage(this.knowledgeBase, await this.preview({ signal }));
  }

  /** What a sync would index, counted by kind, without reading any file (the Add dialog's preview). */
  async preview(
    options: { signal?: AbortSignal; cap?: number; deadline?: number } = {},
  ): Promise<FolderPreview> {
    const cap = options.cap ?? 100_000;
    const preview: FolderPreview = {
      path: this.root,
      counts: {},
      total: 0,
      capped: false,
      skipped: {},
      unreadable: [],
      obsidianVault: await obsidianVaultName(this.root),
    };
    const report: ListingReport = {
      skipped: (item) => (preview.skipped[item.reason] = (preview.skipped[item.reason] ?? 0) + 1),
      incomplete: (gap) => preview.unreadable.push(gap.prefix),
    };
    for await (const ref of this.list(options.signal, report)) {
      const kind = extractorFor(ref.externalId)!.kind;
      preview.counts[kind] = (preview.counts[kind] ?? 0) + 1;
      if (++preview.total >= cap || (options.deadline !== undefined && Date.now() > options.deadline)) {
        preview.capped = true;
        break;
      }
    }
    return preview;
  }

  async *list(signal?: AbortSignal, report?: ListingReport): AsyncIterable<DocumentRef> {
    const realRoot = await this.checkRoot();
    const files = walkFolder({
      root: this.root,
      realRoot,
      rules: ExclusionRules.create(this.exclude),
      indexable: (name) => extractorFor(name) !== null,
      report,
      signal,
      readDirectory: this.readDirectory,
    });
    const notes = new Map<string, NoteFile>();
    for await (const file of files) {
      if (MARKDOWN_EXTENSIONS.has(extensionOf(file.name)))
        notes.set(file.externalId, { path: file.path, revision: `${file.stats.mtimeMs}:${file.stats.size}` });
      if (file.stats.size > this.maxFileBytes) {
        report?.skipped({
          externalId: file.externalId,
          title: stripKnownExtension(file.name),
          reason: 'folder.too-large',
          message: `${file.externalId} is ${formatMiB(file.stats.size)}; files over ${formatMiB(this.maxFileBytes)} are not indexed.`,
        });
        continue;
      }
      yield this.refFor(file);
    }
    this.notes = notes;
  }

  async fetch(ref: DocumentRef, signal?: AbortSignal): Promise<FetchedDocument> {
    const path = this.pathOf(ref.externalId);
    const reader = extractorFor(ref.externalId);
    if (!reader) throw new CairnError('DOCUMENT_FAILED', `Cairn does not read files like ${ref.externalId}.`);
    let bytes: Buffer;
    try {
      // Read from a handle whose real location was checked: never a file swapped in since the listing.
      const { handle, stats } = await openInside(path, await this.realRoot(), ref.externalId);
      try {
        if (stats.size > this.maxFileBytes)
          throw fileFailure(
            'folder.too-large',
            `${ref.externalId} is ${formatMiB(stats.size)}; files over ${formatMiB(this.maxFileBytes)} are not indexed.`,
            { skipped: true },
          );
        bytes = await handle.readFile({ signal });
      } finally {
        await handle.close();
      }
    } catch (error) {
      throw asDocumentFailure(error, ref.externalId, signal);
    }
    const extension = extensionOf(ref.externalId);
    const context: ExtractContext = {
      externalId: ref.externalId,
      path,
      signal,
      maxTextChars: this.maxTextChars,
    };
    if (MARKDOWN_EXTENSIONS.has(extension) && bytes.includes('[[')) {
      const titles = await this.linkTitles(signal);
      context.linkTitle = (target) => titles.titleOf(target, ref.externalId);
    }
    const extracted =
      this.workers && ISOLATED_EXTENSIONS.has(extension)
        ? await this.workers.extract(extension, bytes, context)
        : await reader.extract(bytes, context);
    throwIfAborted(signal);
    // Streaming readers stop at the limit; this counts what the others (Word, EPUB, …) gave.
    const chars = extracted.parts
      ? extracted.parts.reduce((sum, part) => sum + part.markdown.length, 0)
      : (extracted.markdown?.length ?? 0);
    if (chars > this.maxTextChars) throw tooMuchText(context, this.maxTextChars);
    const title = extracted.title?.trim() || stripKnownExtension(basename(path));
    if (extracted.parts) return { markdown: '', parts: extracted.parts, title };
    return { markdown: extracted.markdown ?? '', title };
  }

  /**
   * The folder's note titles, brought up to date once per run (a connector serves one sync): from
   * the run's listing, or a listing of its own when fetch comes first.
   */
  private linkTitles(signal?: AbortSignal): Promise<NoteTitles> {
    this.titles ??= (async () => {
      if (!this.notes) for await (const _ref of this.list(signal)) void _ref;
      const titles = noteTitlesFor(this.root, await this.realRoot());
      await titles.refresh(this.notes ?? new Map(), signal);
      return titles;
    })();
    // A cancelled load is not kept: the next run's fetch tries again.
    this.titles.catch(() => (this.titles = null));
    return this.titles;
  }

  /** Direct mode: a bounded streaming scan of the text files for the query terms. */
  async search(query: string, options: { limit: number; signal?: AbortSignal }): Promise<DirectHit[]> {
    return searchFolder(this, query, {
      ...options,
      maxFiles: this.searchMaxFiles,
      maxFileBytes: this.searchMaxFileBytes,
      logger: this.logger,
    });
  }

  /** The root's real path for reads (resolved once per connector: a connector serves one run). */
  private realRootOnce: Promise<string> | null = null;

  realRoot(): Promise<string> {
    this.realRootOnce ??= this.checkRoot();
    this.realRootOnce.catch(() => (this.realRootOnce = null));
    return this.realRootOnce;
  }

  /** The root's real path; throws a precise error when the folder cannot be used. */
  private async checkRoot(): Promise<string> {
    let info: Stats;
    let real: string;
    try {
      real = await realpath(this.root);
      info = await stat(real);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') throw new CairnError('NOT_FOUND', `Folder not found: ${this.root}`);
      if (code === 'EACCES' || code === 'EPERM')
        throw new CairnError('PERMISSION_DENIED', `Cannot read folder ${this.root}: permission denied.`);
      throw new CairnError('SOURCE_ERROR', `Cannot open folder ${this.root}: ${(error as Error).message}`);
    }
    if (!info.isDirectory()) throw new CairnError('INVALID_ARGUMENT', `Not a folder: ${this.root}`);
    return real;
  }

  private refFor(file: WalkedFile): DocumentRef {
    return {
      externalId: file.externalId,
      title: stripKnownExtension(file.name),
      knowledgeBase: this.knowledgeBase,
      url: file.path,
      remoteUpdatedAt: file.stats.mtime.toISOString(),
      revision: `${file.stats.mtimeMs}:${file.stats.size}`,
    };
  }

  /** The absolute path of a listed file; never outside the root. */
  pathOf(externalId: string): string {
    const path = resolve(this.root, ...externalId.split('/'));
    const inside = relative(this.root, path);
    if (!inside || inside.startsWith('..') || isAbsolute(inside))
      throw new CairnError('DOCUMENT_FAILED', `Path outside the folder: ${externalId}`);
    return path;
  }
}

export function createFolderConnector(init: ConnectorInit): FolderConnector {
  const root = init.config['path'];
  if (typeof root !== 'string' || !root.trim())
    throw new CairnError('INVALID_ARGUMENT', 'A folder connection needs a "path".');
  return new FolderConnector({
    root: expandHome(root),
    logger: init.logger,
    exclude: parseExcludePatterns(init.config['exclude']),
  });
}

function asDocumentFailure(error: unknown, externalId: string, signal: AbortSignal | undefined): CairnError {
  throwIfAborted(signal);
  if (error instanceof CairnError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  const reason = code === 'EISDIR' ? 'is a folder' : fsReason(error);
  return new CairnError('DOCUMENT_FAILED', `Cannot read ${externalId}: ${reason}`, { cause: error });
}

function formatMiB(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export const folderDescriptor: ConnectorDescriptor = {
  platform: 'folder',
  userSignIn: false,
  limitation: () => null,
  createFactory: () => createFolderConnector,
};
