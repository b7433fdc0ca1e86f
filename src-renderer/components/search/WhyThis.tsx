import type { SearchHit } from '@shared/models';
import { PLATFORM_INFO } from '@shared/platforms';
import { useLanguage, useT } from '../../hooks/use-t';
import { useApp } from '../../store/store-context';

/**
 * Whether the vectors that serve search know meaning. The built-in embedder hashes words and their
 * parts (builtin-embedder.ts: "what it is not: semantic"), so its match is one of wording only.
 */
export function isSemanticSpace(activeSpace: string | undefined): boolean {
  return activeSpace !== undefined && activeSpace !== '' && !activeSpace.startsWith('builtin/');
}

/** The query terms that occur in what the card shows (title, heading path, passage). */
export function matchedTerms(hit: SearchHit, terms: string[]): string[] {
  const haystack = `${hit.title}\n${hit.headingPath}\n${hit.text}`.toLowerCase();
  return terms.filter((term) => haystack.includes(term.toLowerCase()));
}

/**
 * Why a result is here, in plain words instead of channel ranks: the words it contains, that it
 * is close in meaning (the vector channel found it, with a model that knows meaning; the built-in
 * embedder only matches wording), or that the platform's own search returned it.
 */
export function WhyThis({ hit, terms }: { hit: SearchHit; terms: string[] }) {
  const t = useT();
  const language = useLanguage();
  const semantic = useApp((state) => isSemanticSpace(state.reindex?.activeSpace));
  const matched = matchedTerms(hit, terms);
  const reasons: string[] = [];
  if (hit.source === 'direct')
    reasons.push(t('why.live', { platform: PLATFORM_INFO[hit.platform].label[language] }));
  if (matched.length > 0)
    reasons.push(
      t('why.words', { words: matched.map((term) => `“${term}”`).join(language === 'zh' ? '、' : ', ') }),
    );
  else if (hit.ranks.keyword !== undefined) reasons.push(t('why.wordForms'));
  if (hit.ranks.vector !== undefined) {
    if (semantic) reasons.push(t('why.meaning'));
    // Wording the words above do not already say: parts of words, other forms, spellings.
    else if (reasons.length === 0) reasons.push(t('why.wording'));
  }
  if (reasons.length === 0) return null;
  return (
    <details className="why">
      <summary>{t('why.summary')}</summary>
      <ul>
        {reasons.map((reason) => (
          <li key={reason}>{reason}</li>
        ))}
      </ul>
    </details>
  );
}
