/**
 * Word (.docx) through mammoth (a maintained converter made for this): the document's structure
 * as HTML (headings, lists, tables, links), then Markdown through the shared turndown path.
 * Images are left out (mammoth would inline them as base64 data URLs). Cannot: .doc (the old
 * binary format), tracked changes and comments, text boxes' exact order, equations.
 */
import mammoth from 'mammoth';
import { htmlToMarkdown } from '../../../text/html-markdown';
import { fileFailure, type Extracted, type ExtractContext } from './extracted';
import { checkZipPackage } from './zip-limits';

const noImages = mammoth.images.imgElement(async () => ({ src: '' }));

export async function extractDocx(bytes: Buffer, context: ExtractContext): Promise<Extracted> {
  // Before mammoth (JSZip) inflates anything: a small file can unpack to gigabytes.
  await checkZipPackage(bytes, context, { kind: 'Word document' });
  let html: string;
  try {
    html = (
      await mammoth.convertToHtml({ buffer: bytes }, { convertImage: noImages, externalFileAccess: false })
    ).value;
  } catch (error) {
    throw fileFailure(
      'folder.corrupt',
      `${context.externalId} is not a readable Word document: ${(error as Error).message}`,
      { cause: error },
    );
  }
  // Empty <img src=""> elements left by the image converter are dropped with the rest of the markup.
  return { markdown: htmlToMarkdown(html.replace(/<img [^>]*>/g, '')) };
}
