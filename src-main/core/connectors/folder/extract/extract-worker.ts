/**
 * The worker-thread side of ExtractorWorkers: reads one file at a time with the reader of
 * extractors.ts for its extension, inside this thread's heap limit, and sends the host each
 * located part (a PDF page) as soon as it is read, so neither side holds the reader's garbage and
 * the host sees progress. Readers are loaded on first use: a PDF-only folder never loads ExcelJS.
 *
 * Entry points: extract-worker-bootstrap.mjs from source (tsx), or the bundled extract-worker.js
 * (electron.vite.config.ts, scripts/build-cli.mjs).
 */
import { parentPort } from 'node:worker_threads';
import { isErrorCode } from '@shared/errors';
import { toErrorData } from '../../../errors';
import type { Extractor } from './extracted';
import type { ExtractReply, ExtractRequest } from './extract-worker-protocol';

const port = parentPort;
if (!port) throw new Error('extract-worker.ts runs only as a worker thread');

const READERS: Readonly<Record<string, () => Promise<Extractor>>> = {
  pdf: async () => (await import('./extract-pdf')).extractPdf,
  docx: async () => (await import('./extract-docx')).extractDocx,
  xlsx: async () => (await import('./extract-xlsx')).extractXlsx,
  pptx: async () => (await import('./extract-pptx')).extractPptx,
  epub: async () => (await import('./extract-epub')).extractEpub,
  html: async () => (await import('./extract-html')).extractHtml,
  htm: async () => (await import('./extract-html')).extractHtml,
};

function send(message: ExtractReply): void {
  port!.postMessage(message);
}

async function run(request: ExtractRequest): Promise<void> {
  const { id } = request;
  try {
    const load = READERS[request.extension];
    if (!load) throw new Error(`No isolated reader for .${request.extension} files.`);
    const extract = await load();
    const extracted = await extract(
      Buffer.from(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength),
      {
        externalId: request.externalId,
        path: request.path,
        maxTextChars: request.maxTextChars,
        onPart: (part) => send({ type: 'part', id, part }),
      },
    );
    send({
      type: 'done',
      id,
      title: extracted.title ?? null,
      ...(extracted.markdown !== undefined ? { markdown: extracted.markdown } : {}),
      ...(extracted.parts ? { parts: extracted.parts } : {}),
    });
  } catch (error) {
    const data = toErrorData(error);
    send({
      type: 'failed',
      id,
      error: {
        code: isErrorCode(data.code) ? data.code : 'INTERNAL',
        message: data.message,
        ...(data.details ? { details: data.details } : {}),
      },
    });
  }
}

// One file at a time: the host sends the next only after this one's `done` or `failed`.
port.on('message', (request: ExtractRequest) => void run(request));
