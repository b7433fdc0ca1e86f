/** Shared in-memory state of the DEMO backend (see ../demo-cairn.ts). */
import { basename, join } from 'node:path';
import type { CairnEventName, CairnEvents } from '../../../src-shared/contract';
import type { ConnectionView, SyncRunView } from '../../../src-shared/models';
import { DEMO_DOCUMENTS, type DemoDocument } from './demo-corpus';
import { chunkDemoMarkdown, type DemoChunk } from './demo-search';

export interface DemoSourceDocument {
  externalId: string;
  title: string;
  knowledgeBase: string;
  url: string | null;
  document: DemoDocument;
}

export interface IndexedDocument extends Omit<DemoSourceDocument, 'document'> {
  connectionId: string;
  documentId: number;
  chunks: DemoChunk[];
}

export interface DemoConnection {
  view: ConnectionView;
  secrets: Record<string, string>;
  /** The last good index of this connection; a failed or cancelled run leaves it untouched. */
  indexed: IndexedDocument[];
  runs: SyncRunView[];
  running: AbortController | null;
}

export type Emit = <N extends CairnEventName>(name: N, payload: CairnEvents[N]) => void;

/** Owns every timer the demo starts, so dispose() can stop them all (STYLE.md §9). */
export class DemoTimers {
  private readonly pending = new Set<ReturnType<typeof setTimeout>>();

  later(ms: number, work: () => void): void {
    const handle = setTimeout(() => {
      this.pending.delete(handle);
      work();
    }, ms);
    this.pending.add(handle);
  }

  dispose(): void {
    for (const handle of this.pending) clearTimeout(handle);
    this.pending.clear();
  }
}

export class DemoState {
  readonly connections = new Map<string, DemoConnection>();
  private nextId = 1;

  newId(): number {
    return this.nextId++;
  }

  views(): ConnectionView[] {
    return [...this.connections.values()].map((connection) => ({ ...connection.view }));
  }
}

const PLATFORM_KNOWLEDGE_BASE: Record<string, string> = {
  feishu: '公司知识库',
  lark: 'Company wiki',
  yuque: 'Handbook 手册',
  dingtalk: '钉钉知识库',
  ima: 'IMA 笔记',
};

/** What a connection's source "contains" in the demo: the sample corpus, addressed per platform. */
export function demoSourceDocuments(view: Pick<ConnectionView, 'platform' | 'config'>): DemoSourceDocument[] {
  if (view.platform === 'folder') {
    const root = String(view.config.path ?? '');
    return DEMO_DOCUMENTS.map((document) => ({
      externalId: document.slug,
      title: document.title,
      knowledgeBase: basename(root) || root,
      url: join(root, document.slug),
      document,
    }));
  }
  return DEMO_DOCUMENTS.filter((document) => !document.unreadable).map((document) => {
    const slug = document.slug.replace(/\.md$/, '');
    return {
      externalId: slug,
      title: document.title,
      knowledgeBase: PLATFORM_KNOWLEDGE_BASE[view.platform] ?? view.platform,
      url: `https://demo-${view.platform}.example.com/docs/${slug}`,
      document,
    };
  });
}

export function indexDocument(state: DemoState, connectionId: string, source: DemoSourceDocument): IndexedDocument {
  const { document: _document, ...rest } = source;
  const firstChunkId = state.newId() * 100;
  return { ...rest, connectionId, documentId: state.newId(), chunks: chunkDemoMarkdown(source.document.markdown, firstChunkId) };
}
