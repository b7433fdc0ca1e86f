/**
 * EPUB books: the chapters in reading order (the package's spine, EPUB 3.3 §5), each XHTML
 * chapter through the shared turndown path; the title from the package metadata. Cannot:
 * DRM-protected books (their chapters are encrypted), fixed-layout books made of images.
 */
import { decodeXmlEntities, fileFailure, type Extracted, type ExtractContext } from './extracted';
import { htmlDocument } from './extract-html';
import { readZipText, resolvePartPath } from './ooxml-zip';
import { checkZipPackage } from './zip-limits';

export async function extractEpub(bytes: Buffer, context: ExtractContext): Promise<Extracted> {
  await checkZipPackage(bytes, context, { kind: 'EPUB' });
  const entries = readZipText(bytes, context.externalId, (name) => /\.(xml|opf|x?html?|ncx)$/i.test(name));
  if (entries.has('META-INF/encryption.xml') && /EncryptedData/.test(entries.get('META-INF/encryption.xml')!))
    throw fileFailure(
      'folder.encrypted',
      `${context.externalId} is a protected (DRM) book; Cairn cannot read it.`,
    );
  const container = entries.get('META-INF/container.xml') ?? '';
  const opfPath = /<rootfile\b[^>]*\bfull-path="([^"]+)"/.exec(container)?.[1];
  const opf = opfPath ? entries.get(opfPath) : undefined;
  if (!opfPath || !opf)
    throw fileFailure('folder.corrupt', `${context.externalId} is not a readable EPUB (no package file).`);
  const manifest = new Map<string, string>();
  for (const item of opf.matchAll(/<item\b([^>]*)\/?>/g)) {
    const id = /\bid="([^"]+)"/.exec(item[1] ?? '')?.[1];
    const href = /\bhref="([^"]+)"/.exec(item[1] ?? '')?.[1];
    if (id && href) manifest.set(id, resolvePartPath(opfPath, decodeURIComponent(href)));
  }
  const chapters = [...opf.matchAll(/<itemref\b[^>]*\bidref="([^"]+)"/g)]
    .map((ref) => manifest.get(ref[1] ?? ''))
    .map((path) => (path ? entries.get(path) : undefined))
    .filter((html): html is string => typeof html === 'string')
    .map((html) => htmlDocument(html).markdown ?? '')
    .filter((markdown) => markdown.trim());
  const title = /<dc:title\b[^>]*>([\s\S]*?)<\/dc:title>/.exec(opf)?.[1];
  return { markdown: chapters.join('\n\n'), title: title ? decodeXmlEntities(title).trim() || null : null };
}
