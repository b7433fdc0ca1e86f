/**
 * PowerPoint (.pptx): one part per slide, in the presentation's order, the slide title as a
 * heading, body text and tables beneath, and the speaker notes under "Speaker notes". Read
 * straight from the Office Open XML package (ECMA-376 Part 1, PresentationML): no maintained
 * reader for Node 20 gives slide titles and notes without pulling OCR and PDF engines along
 * (docs/decisions/local-file-formats.md). Cannot: .ppt, text inside charts, SmartArt and images.
 */
import type { LocatedPart } from '../../connector';
import { decodeXmlEntities, fileFailure, type Extracted, type ExtractContext } from './extracted';
import { readZipText, relationships, resolvePartPath } from './ooxml-zip';
import { checkZipPackage } from './zip-limits';
import { markdownTable } from '../../../text/html-markdown';

const NOTES_REL = /\/notesSlide$/;

export async function extractPptx(bytes: Buffer, context: ExtractContext): Promise<Extracted> {
  await checkZipPackage(bytes, context, { kind: 'PowerPoint presentation' });
  const parts = readZipText(
    bytes,
    context.externalId,
    (name) =>
      name === 'ppt/presentation.xml' ||
      name === 'ppt/_rels/presentation.xml.rels' ||
      name === 'docProps/core.xml' ||
      /^ppt\/(slides|notesSlides)\/(_rels\/)?[^/]+\.xml(\.rels)?$/.test(name),
  );
  const presentation = parts.get('ppt/presentation.xml');
  if (!presentation)
    throw fileFailure(
      'folder.corrupt',
      `${context.externalId} is not a PowerPoint presentation (no ppt/presentation.xml).`,
    );
  const rels = relationships(parts.get('ppt/_rels/presentation.xml.rels'));
  const slidePaths = [...presentation.matchAll(/<p:sldId\b[^>]*\br:id="([^"]+)"/g)]
    .map((match) => rels.get(match[1] ?? ''))
    .filter((rel): rel is { target: string; type: string } => rel !== undefined)
    .map((rel) => resolvePartPath('ppt/presentation.xml', rel.target));
  const located: LocatedPart[] = slidePaths.map((path, index) => {
    const slide = parts.get(path) ?? '';
    const slideRels = relationships(parts.get(path.replace(/([^/]+)$/, '_rels/$1.rels')));
    const notesTarget = [...slideRels.values()].find((rel) => NOTES_REL.test(rel.type))?.target;
    const notes = notesTarget ? parts.get(resolvePartPath(path, notesTarget)) : undefined;
    return {
      markdown: slideMarkdown(index + 1, slide, notes),
      location: { kind: 'slide', slide: index + 1 },
    };
  });
  return { parts: located, title: coreTitle(parts.get('docProps/core.xml')) };
}

function slideMarkdown(number: number, slideXml: string, notesXml: string | undefined): string {
  let title = '';
  const body: string[] = [];
  for (const shape of shapes(slideXml)) {
    if (shape.kind === 'table') {
      body.push(markdownTable(shape.rows));
      continue;
    }
    const text = shape.paragraphs.join('\n').trim();
    if (!text) continue;
    if (!title && /^(title|ctrTitle)$/.test(shape.placeholder ?? '')) title = text.replace(/\s+/g, ' ');
    else body.push(shape.paragraphs.filter((p) => p.trim()).join('\n\n'));
  }
  const lines = [`## ${title || `Slide ${number}`}`, ...body];
  const notes = notesXml
    ? shapes(notesXml)
        .filter((shape) => shape.kind === 'text' && shape.placeholder === 'body')
        .flatMap((shape) => (shape.kind === 'text' ? shape.paragraphs : []))
        .filter((p) => p.trim())
    : [];
  if (notes.length > 0) lines.push('### Speaker notes', notes.join('\n\n'));
  return lines.join('\n\n');
}

type Shape =
  { kind: 'text'; placeholder: string | null; paragraphs: string[] } | { kind: 'table'; rows: string[][] };

/** Text shapes and tables in document order (shapes inside groups included). */
function shapes(xml: string): Shape[] {
  const found: Shape[] = [];
  for (const match of xml.matchAll(/<p:sp\b[\s\S]*?<\/p:sp>|<a:tbl\b[\s\S]*?<\/a:tbl>/g)) {
    const block = match[0];
    if (block.startsWith('<a:tbl')) {
      const rows = [...block.matchAll(/<a:tr\b[\s\S]*?<\/a:tr>/g)].map((row) =>
        [...row[0].matchAll(/<a:tc\b[\s\S]*?<\/a:tc>/g)].map((cell) =>
          paragraphs(cell[0]).join(' ').replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|'),
        ),
      );
      found.push({ kind: 'table', rows });
      continue;
    }
    const placeholder =
      /<p:ph\b[^>]*?\btype="([^"]+)"/.exec(block)?.[1] ?? (/<p:ph\b/.test(block) ? 'body' : null);
    found.push({ kind: 'text', placeholder, paragraphs: paragraphs(block) });
  }
  return found;
}

function paragraphs(xml: string): string[] {
  return [...xml.matchAll(/<a:p\b[\s\S]*?<\/a:p>/g)].map((p) =>
    [...p[0].matchAll(/<a:t(?:\s[^>]*)?>([\s\S]*?)<\/a:t>|<a:br\b[^>]*\/>/g)]
      .map((run) => (run[1] === undefined ? '\n' : decodeXmlEntities(run[1])))
      .join(''),
  );
}

function coreTitle(xml: string | undefined): string | null {
  const title = /<dc:title>([\s\S]*?)<\/dc:title>/.exec(xml ?? '')?.[1];
  return title ? decodeXmlEntities(title).trim() || null : null;
}
