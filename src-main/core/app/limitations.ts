/**
 * What a connection cannot do, as a plain sentence shown on its card and in `cairn status`.
 * Static per platform, so listing connections never builds connectors or reads secrets.
 */
import type { Platform } from '../../../src-shared/models';

export function platformLimitation(platform: Platform): string | null {
  switch (platform) {
    case 'dingtalk':
      return 'Full text unavailable: DingTalk delivers Markdown only through a Stream event subscription, which this build does not include. Direct search works.';
    case 'ima':
      return 'Experimental: IMA’s OpenAPI is documented only inside the ima skill package; field names are best effort.';
    default:
      return null;
  }
}
