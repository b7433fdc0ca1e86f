/**
 * The size check every zip-based reader (Word, PowerPoint, Excel, EPUB) passes a file through
 * before it reads anything: a 1 MB package can inflate to gigabytes (a "zip bomb"), and the
 * readers (mammoth, ExcelJS, fflate) would inflate it whole. From the package's central directory
 * (APPNOTE.TXT 6.3.10 §4.3.12, with the ZIP64 records of §4.3.14–§4.3.15): the number of entries,
 * and the DECLARED uncompressed size of every part a reader reads, each against a limit; then the
 * ACTUAL size of those parts, inflated as a stream, counted and thrown away, stopping at the limit
 * or at the declared size, whichever comes first (a package may lie about its sizes). So no reader
 * ever meets a part larger than the limit, and the check itself holds no more than one 64 KiB
 * slice of output at a time.
 */
import { createInflateRaw } from 'node:zlib';
import { fileFailure, type ExtractContext } from './extracted';

export interface ZipLimits {
  /** Entries in the package. @default 20,000 */
  maxEntries: number;
  /** Uncompressed bytes of one part a reader reads. @default 64 MiB */
  maxPartBytes: number;
  /** Uncompressed bytes of all the parts a reader reads together. @default 256 MiB */
  maxTotalBytes: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 20_000,
  maxPartBytes: 64 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
};

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated (others are refused by the readers themselves). */
  method: number;
  compressedSize: number;
  /** As the central directory declares it. */
  declaredSize: number;
  localHeaderOffset: number;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const MAX_U16 = 0xffff;
const MAX_U32 = 0xffffffff;

/** The entries of a zip package's central directory; throws `folder.corrupt` when it cannot be read. */
export function zipEntries(bytes: Buffer, externalId: string, kind = 'package'): ZipEntry[] {
  const corrupt = (why: string) =>
    fileFailure('folder.corrupt', `${externalId} is not a readable ${kind}: ${why}.`);
  // The end-of-central-directory record sits in the last 22 bytes plus a comment of up to 64 KiB.
  let eocd = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - MAX_U16); at--)
    if (bytes.readUInt32LE(at) === EOCD) {
      eocd = at;
      break;
    }
  if (eocd < 0) throw corrupt('no zip directory at its end');
  let count = bytes.readUInt16LE(eocd + 10);
  let directorySize = bytes.readUInt32LE(eocd + 12);
  let directoryOffset = bytes.readUInt32LE(eocd + 16);
  if (count === MAX_U16 || directorySize === MAX_U32 || directoryOffset === MAX_U32) {
    const locator = eocd - 20;
    if (locator < 0 || bytes.readUInt32LE(locator) !== ZIP64_LOCATOR)
      throw corrupt('a ZIP64 directory without its locator');
    const record = safeNumber(bytes.readBigUInt64LE(locator + 8));
    if (record + 56 > bytes.length || bytes.readUInt32LE(record) !== ZIP64_EOCD)
      throw corrupt('a damaged ZIP64 directory');
    count = safeNumber(bytes.readBigUInt64LE(record + 32));
    directorySize = safeNumber(bytes.readBigUInt64LE(record + 40));
    directoryOffset = safeNumber(bytes.readBigUInt64LE(record + 48));
  }
  if (directoryOffset + directorySize > bytes.length) throw corrupt('its directory lies past its end');
  const entries: ZipEntry[] = [];
  let at = directoryOffset;
  const end = directoryOffset + directorySize;
  const decoder = new TextDecoder('utf-8');
  while (at < end && entries.length < count) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== CENTRAL_HEADER)
      throw corrupt('a damaged directory entry');
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const entry: ZipEntry = {
      name: decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      method: bytes.readUInt16LE(at + 10),
      compressedSize: bytes.readUInt32LE(at + 20),
      declaredSize: bytes.readUInt32LE(at + 24),
      localHeaderOffset: bytes.readUInt32LE(at + 42),
    };
    readZip64Extra(bytes.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength), entry);
    entries.push(entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** ZIP64 extended information (header id 1): 8-byte values for the fields saturated at 0xFFFFFFFF, in this order. */
function readZip64Extra(extra: Buffer, entry: ZipEntry): void {
  for (let at = 0; at + 4 <= extra.length;) {
    const id = extra.readUInt16LE(at);
    const size = extra.readUInt16LE(at + 2);
    if (id === 1) {
      let field = at + 4;
      const next = () => {
        const value = field + 8 <= at + 4 + size ? safeNumber(extra.readBigUInt64LE(field)) : MAX_U32;
        field += 8;
        return value;
      };
      if (entry.declaredSize === MAX_U32) entry.declaredSize = next();
      if (entry.compressedSize === MAX_U32) entry.compressedSize = next();
      if (entry.localHeaderOffset === MAX_U32) entry.localHeaderOffset = next();
      return;
    }
    at += 4 + size;
  }
}

/**
 * The parts the readers inflate: XML, relationships and (X)HTML. Media (images, fonts, embedded
 * objects) are never inflated by them, so a large photo does not count against the limits.
 */
export function isTextPart(name: string): boolean {
  return /\.(xml|rels|opf|ncx|x?html?)$/i.test(name);
}

function safeNumber(value: bigint): number {
  return value > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(value);
}

/**
 * Refuses a package whose entries, or the parts `reads` names (what its reader will inflate), pass
 * the limits: declared sizes first (free), then actual sizes, each part inflated and counted up to
 * its limit. Throws `folder.too-large` (skipped, naming the limit) or `folder.corrupt`.
 */
export interface ZipCheckOptions {
  /** What the file is, for messages ("Word document"). @default 'package' */
  kind?: string;
  /** The parts its reader inflates. @default isTextPart */
  reads?: (name: string) => boolean;
  limits?: ZipLimits;
}

export async function checkZipPackage(
  bytes: Buffer,
  context: Pick<ExtractContext, 'externalId' | 'signal'>,
  options: ZipCheckOptions = {},
): Promise<void> {
  const { externalId } = context;
  const kind = options.kind ?? 'package';
  const reads = options.reads ?? isTextPart;
  const limits = options.limits ?? DEFAULT_ZIP_LIMITS;
  const entries = zipEntries(bytes, externalId, kind);
  const tooLarge = (what: string) =>
    fileFailure('folder.too-large', `${externalId} ${what}; packages that large are not read.`, {
      skipped: true,
    });
  if (entries.length > limits.maxEntries)
    throw tooLarge(`holds more than ${limits.maxEntries.toLocaleString('en')} parts`);
  const read = entries.filter((entry) => reads(entry.name));
  let declaredTotal = 0;
  for (const entry of read) {
    if (entry.declaredSize > limits.maxPartBytes)
      throw tooLarge(
        `has a part (${entry.name}) of ${formatMiB(entry.declaredSize)} uncompressed, over the ${formatMiB(limits.maxPartBytes)} limit`,
      );
    declaredTotal += entry.declaredSize;
  }
  if (declaredTotal > limits.maxTotalBytes)
    throw tooLarge(
      `unpacks to ${formatMiB(declaredTotal)} of text parts, over the ${formatMiB(limits.maxTotalBytes)} limit`,
    );
  let actualTotal = 0;
  for (const entry of read) {
    context.signal?.throwIfAborted();
    const room = Math.min(limits.maxPartBytes, limits.maxTotalBytes - actualTotal);
    actualTotal += await actualSize(bytes, entry, `${externalId} is not a readable ${kind}`, room, tooLarge);
  }
}

/** The part's inflated size, counted chunk by chunk; stops past `room` or past what it declares. */
async function actualSize(
  bytes: Buffer,
  entry: ZipEntry,
  unreadable: string,
  room: number,
  tooLarge: (what: string) => Error,
): Promise<number> {
  const corrupt = (why: string) =>
    fileFailure('folder.corrupt', `${unreadable}: its part ${entry.name} ${why}.`);
  const local = entry.localHeaderOffset;
  if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== LOCAL_HEADER)
    throw corrupt('has no local header where the directory says');
  const dataStart = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
  const dataEnd = dataStart + entry.compressedSize;
  if (dataEnd > bytes.length) throw corrupt('lies past the end of the file');
  const overLimit = () =>
    tooLarge(
      `has a part (${entry.name}) that unpacks to more than ${formatMiB(room)}, over the limit (${formatMiB(entry.declaredSize)} declared)`,
    );
  if (entry.method === 0) {
    if (entry.compressedSize > room) throw overLimit();
    return entry.compressedSize;
  }
  // Other methods: the reader refuses them with its own message.
  if (entry.method !== 8) return 0;
  const limit = Math.min(room, entry.declaredSize);
  return new Promise<number>((resolve, reject) => {
    const inflate = createInflateRaw({ chunkSize: 64 * 1024 });
    let total = 0;
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      inflate.destroy();
      outcome();
    };
    inflate.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit)
        settle(() =>
          reject(
            total > entry.declaredSize && entry.declaredSize < room
              ? corrupt(
                  `unpacks to more than the ${entry.declaredSize.toLocaleString('en')} bytes it declares`,
                )
              : overLimit(),
          ),
        );
    });
    inflate.on('error', (error) => settle(() => reject(corrupt(`cannot be unpacked (${error.message})`))));
    inflate.on('end', () => settle(() => resolve(total)));
    inflate.end(bytes.subarray(dataStart, dataEnd));
  });
}

function formatMiB(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
