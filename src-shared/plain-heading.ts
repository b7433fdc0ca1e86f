/**
 * Headings as read, without their inline Markdown. Core keeps a heading's raw title (`code`,
 * **bold**, [links](…)) since anchors and matching need it; every place that shows one to a
 * person (the renderer's cards, the CLI, the MCP tools' heading_path) shows it plain.
 */

/** One heading without its inline Markdown: "`tidb_mem_quota_query`" → "tidb_mem_quota_query". */
export function plainHeading(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/(\*\*|__|~~)(.*?)\1/g, '$2')
    .trim();
}

/** A heading path ("系统变量 > `tidb_mem_quota_query`") with each level plain, " > " kept between them. */
export function plainHeadingPath(path: string): string {
  return path.split(' > ').map(plainHeading).filter(Boolean).join(' > ');
}
