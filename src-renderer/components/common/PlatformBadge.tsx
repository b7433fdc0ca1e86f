import type { Platform } from '@shared/models';
import { PLATFORM_INFO } from '@shared/platforms';
import { useLanguage } from '../../hooks/use-t';

export function PlatformBadge({ platform }: { platform: Platform }) {
  const language = useLanguage();
  return (
    <span className={`badge badge-platform platform-${platform}`}>
      {PLATFORM_INFO[platform].label[language]}
    </span>
  );
}

export function KnowledgeBaseBadge({ name }: { name: string }) {
  return name ? (
    <span className="badge badge-kb" title={name}>
      {name}
    </span>
  ) : null;
}
