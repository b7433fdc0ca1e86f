/**
 * Reading the parts of a zip package (PPTX, EPUB) with fflate: only the entries asked for are
 * inflated, and each is capped, so a zip bomb cannot take the process's memory.
 */
import { unzipSync } from 'fflate';
import { fileFailure } from './extracted';

/** Largest inflated entry read. @default 64 MiB */
const MAX_ENTRY_BYTES = 64 * 1024 * 1024;

export type ZipEntries = Map<string, string>;

/** The text of the entries whose names `wanted` accepts (decoded as UTF-8). */
export function readZipText(
  bytes: Buffer,
  externalId: string,
  wanted: (name: string) => boolean,
): ZipEntries {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      filter: (file) => {
        if (!wanted(file.name)) return false;
        if (file.originalSize > MAX_ENTRY_BYTES)
          throw fileFailure('folder.too-large', `${externalId}: the part ${file.name} is too large to read.`);
        return true;
      },
    });
  } catch (error) {
    if ((error as { details?: unknown }).details) throw error;
    throw fileFailure(
      'folder.corrupt',
      `${externalId} is not a readable package: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  const decoder = new TextDecoder('utf-8');
  return new Map(Object.entries(files).map(([name, data]) => [name, decoder.decode(data)]));
}

/** Resolves a relationship target against the folder of the part that names it ("../notesSlides/x.xml"). */
export function resolvePartPath(fromPart: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const segments = fromPart.split('/').slice(0, -1);
  for (const segment of target.split('/')) {
    if (segment === '..') segments.pop();
    else if (segment !== '.') segments.push(segment);
  }
  return segments.join('/');
}

/** Relationship id → target of a .rels part. */
export function relationships(xml: string | undefined): Map<string, { target: string; type: string }> {
  const rels = new Map<string, { target: string; type: string }>();
  for (const match of (xml ?? '').matchAll(/<Relationship\b([^>]*)\/?>/g)) {
    const attrs = match[1] ?? '';
    const id = /\bId="([^"]*)"/.exec(attrs)?.[1];
    const target = /\bTarget="([^"]*)"/.exec(attrs)?.[1];
    const type = /\bType="([^"]*)"/.exec(attrs)?.[1] ?? '';
    if (id && target) rels.set(id, { target, type });
  }
  return rels;
}
