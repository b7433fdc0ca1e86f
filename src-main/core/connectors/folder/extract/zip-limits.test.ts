import { zipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { docxBomb, docxBytes } from '../../../../testing/file-fixtures';
import { CairnError } from '../../../errors';
import { extractDocx } from './extract-docx';
import { extractEpub } from './extract-epub';
import { extractPptx } from './extract-pptx';
import { extractXlsx } from './extract-xlsx';
import { checkZipPackage, DEFAULT_ZIP_LIMITS, zipEntries, type ZipLimits } from './zip-limits';

const context = { externalId: 'a.docx', path: '/nowhere/a.docx' };
const small: ZipLimits = { maxEntries: 50, maxPartBytes: 1024 * 1024, maxTotalBytes: 3 * 1024 * 1024 };

async function refusal(
  work: Promise<unknown>,
): Promise<{ reason: unknown; skipped: unknown; message: string }> {
  try {
    await work;
  } catch (error) {
    if (!(error instanceof CairnError)) throw error;
    return { reason: error.details?.['reason'], skipped: error.details?.['skipped'], message: error.message };
  }
  throw new Error('accepted');
}

describe('checkZipPackage', () => {
  it('reads declared sizes from the central directory', () => {
    const bytes = docxBomb({ inflatedMiB: 3 });
    const document = zipEntries(bytes, 'a.docx').find((entry) => entry.name === 'word/document.xml');
    expect(document?.declaredSize).toBeGreaterThanOrEqual(3 * 1024 * 1024);
    expect(document?.compressedSize).toBeLessThan(64 * 1024);
  });

  it('accepts an ordinary package', async () => {
    const bytes = docxBytes([{ heading: 1, text: 'Title' }, { text: 'Body text.' }]);
    await expect(checkZipPackage(bytes, context, { limits: small })).resolves.toBeUndefined();
  });

  it('refuses a part whose declared size passes the limit, before inflating anything', async () => {
    const found = await refusal(checkZipPackage(docxBomb({ inflatedMiB: 3 }), context, { limits: small }));
    expect(found).toMatchObject({ reason: 'folder.too-large', skipped: true });
    expect(found.message).toContain('word/document.xml');
    expect(found.message).toContain('1.0 MiB limit');
  });

  it('refuses a part that declares a small size but unpacks to more, stopping there', async () => {
    const lying = docxBomb({ inflatedMiB: 3, declaredBytes: 1000 });
    expect(zipEntries(lying, 'a.docx').find((e) => e.name === 'word/document.xml')?.declaredSize).toBe(1000);
    const found = await refusal(checkZipPackage(lying, context, { limits: small }));
    expect(found).toMatchObject({ reason: 'folder.corrupt' });
    expect(found.message).toContain('more than the 1,000 bytes it declares');
  });

  it('refuses a part that declares a size under the limit but unpacks past the limit', async () => {
    const lying = docxBomb({ inflatedMiB: 3, declaredBytes: 2 * 1024 * 1024 });
    const found = await refusal(
      checkZipPackage(lying, context, { limits: { ...small, maxPartBytes: 2.5 * 1024 * 1024 } }),
    );
    expect(found.reason).toBe('folder.corrupt');
  });

  it('refuses text parts that pass the total limit together', async () => {
    const part = 'x'.repeat(900 * 1024);
    const bytes = Buffer.from(
      zipSync({
        'a.xml': strToU8(part),
        'b.xml': strToU8(part),
        'c.xml': strToU8(part),
        'd.xml': strToU8(part),
      }),
    );
    const found = await refusal(checkZipPackage(bytes, context, { limits: small }));
    expect(found).toMatchObject({ reason: 'folder.too-large' });
    expect(found.message).toContain('3.0 MiB limit');
    // Media is not inflated by any reader, so it does not count.
    const withMedia = Buffer.from(
      zipSync({ 'a.xml': strToU8('<a/>'), 'media/big.png': strToU8(part + part + part + part) }),
    );
    await expect(checkZipPackage(withMedia, context, { limits: small })).resolves.toBeUndefined();
  });

  it('refuses a package of too many entries', async () => {
    const files = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`p${i}.xml`, strToU8('<a/>')]));
    const found = await refusal(checkZipPackage(Buffer.from(zipSync(files)), context, { limits: small }));
    expect(found.message).toContain('more than 50 parts');
  });

  it('calls a file that is not a zip damaged', async () => {
    const found = await refusal(checkZipPackage(Buffer.from('not a zip at all'), context));
    expect(found.reason).toBe('folder.corrupt');
  });
});

describe('every zip-based reader checks sizes before reading', () => {
  // 300 MiB of paragraphs in about 1 MB: mammoth alone took 3.2 GB of RSS for it.
  const bomb = docxBomb({ inflatedMiB: 300 });

  it.each([
    ['docx', extractDocx],
    ['pptx', extractPptx],
    ['xlsx', extractXlsx],
    ['epub', extractEpub],
  ] as const)('%s: a 300 MiB bomb is refused with the limit named', async (kind, extract) => {
    expect(bomb.length).toBeLessThan(1.5 * 1024 * 1024);
    const found = await refusal(extract(bomb, { externalId: `bomb.${kind}`, path: `/nowhere/bomb.${kind}` }));
    expect(found).toMatchObject({ reason: 'folder.too-large', skipped: true });
    expect(found.message).toContain(
      `${(DEFAULT_ZIP_LIMITS.maxPartBytes / 1024 / 1024).toFixed(1)} MiB limit`,
    );
  });
});
