import { useEffect } from 'react';
import type { FacetCounts, Platform, SearchFacets } from '@shared/models';
import { PLATFORM_INFO } from '@shared/platforms';
import { type Translate } from '../../i18n/i18n';
import { useLanguage, useT } from '../../hooks/use-t';
import type { Language } from '../../i18n/i18n';
import { useApp } from '../../store/store-context';
import {
  activeFilterCount,
  customRangeValid,
  dateActive,
  toggled,
  type DatePreset,
  type FilterState,
  type ListField,
} from '../../store/filter-model';
import { CheckList, FilterPopover, type FilterOption } from './FilterMenu';

const PRESETS: DatePreset[] = ['any', 'week', 'month', 'year', 'custom'];

const COUNTED: Record<ListField, keyof FacetCounts> = {
  connectionIds: 'connections',
  platforms: 'platforms',
  knowledgeBases: 'knowledgeBases',
  tags: 'tags',
};

/**
 * A filter's options from the facets; only what the index holds is offered. With a search answered,
 * each counts that search's matching documents (`counts`, SearchResponse.facetCounts) instead of
 * the whole index's.
 */
function optionsFor(
  field: ListField,
  facets: SearchFacets,
  language: Language,
  counts: FacetCounts | null,
): FilterOption[] {
  const options = indexOptions(field, facets, language);
  if (!counts) return options;
  const counted = counts[COUNTED[field]] as Record<string, number>;
  return options.map((option) => ({ ...option, documents: counted[option.value] ?? 0 }));
}

function indexOptions(field: ListField, facets: SearchFacets, language: Language): FilterOption[] {
  const names = new Map(facets.connections.map((c) => [c.id, c.name]));
  if (field === 'connectionIds')
    return facets.connections.map((c) => ({ value: c.id, label: c.name, documents: c.documents }));
  if (field === 'platforms')
    return facets.platforms.map((p) => ({
      value: p.platform,
      label: PLATFORM_INFO[p.platform].label[language],
      documents: p.documents,
    }));
  if (field === 'knowledgeBases')
    return facets.knowledgeBases.map((kb) => ({
      value: kb.name,
      label: kb.name,
      // Two connections may share a name: say where it comes from.
      detail: kb.connectionIds.map((id) => names.get(id) ?? id).join(', '),
      documents: kb.documents,
    }));
  return facets.tags.map((tag) => ({ value: tag.tag, label: tag.tag, documents: tag.documents }));
}

const FIELDS: {
  field: ListField;
  label: 'filters.connection' | 'filters.platform' | 'filters.kb' | 'filters.tag';
}[] = [
  { field: 'connectionIds', label: 'filters.connection' },
  { field: 'platforms', label: 'filters.platform' },
  { field: 'knowledgeBases', label: 'filters.kb' },
  { field: 'tags', label: 'filters.tag' },
];

/** What a button or chip shows for one chosen value. */
function valueLabel(
  field: ListField,
  value: string,
  facets: SearchFacets | null,
  language: Language,
): string {
  if (field === 'platforms') return PLATFORM_INFO[value as Platform]?.label[language] ?? value;
  if (field === 'connectionIds') return facets?.connections.find((c) => c.id === value)?.name ?? value;
  if (field === 'tags') return `#${value.replace(/^#/, '')}`;
  return value;
}

function dateText(state: FilterState, t: Translate): string {
  if (state.date !== 'custom') return t(`filters.date.${state.date}`);
  if (state.from && state.to) return t('filters.date.between', { from: state.from, to: state.to });
  if (state.from) return t('filters.date.since', { from: state.from });
  if (state.to) return t('filters.date.until', { to: state.to });
  return t('filters.date.custom');
}

/**
 * The search view's filter bar: one popover per filter (connection, platform, knowledge base, tag,
 * modified date), then the active filters as removable chips and "Clear filters". A filter with
 * fewer than two choices is not offered (a tag filter is, from one tag: it narrows to documents).
 */
export function FilterBar() {
  const t = useT();
  const language = useLanguage();
  const facets = useApp((state) => state.facets);
  const query = useApp((state) => state.query);
  const answeredCounts = useApp((state) => state.facetCounts);
  const counts = query.trim() ? answeredCounts : null;
  const moreMayMatch = useApp((state) => state.moreMayMatch);
  const filters = useApp((state) => state.searchFilters);
  const setFilters = useApp((state) => state.setSearchFilters);
  const clear = useApp((state) => state.clearSearchFilters);
  const loadFacets = useApp((state) => state.loadFacets);
  // Loaded again when a sync changed what is indexed.
  const indexed = useApp((state) => state.connections.reduce((sum, c) => sum + c.documentCount, 0));
  useEffect(() => {
    void loadFacets();
  }, [indexed, loadFacets]);

  const active = activeFilterCount(filters);
  const chips: { key: string; text: string; remove: () => void }[] = [];
  for (const { field } of FIELDS)
    for (const value of filters[field])
      chips.push({
        key: `${field}:${value}`,
        text: valueLabel(field, value, facets, language),
        remove: () => setFilters({ [field]: toggled(filters[field] as string[], value) }),
      });
  if (dateActive(filters))
    chips.push({
      key: 'date',
      text: dateText(filters, t),
      remove: () => setFilters({ date: 'any', from: '', to: '' }),
    });

  return (
    <div className="filter-bar" role="toolbar" aria-label={t('filters.label')}>
      <div className="filter-triggers">
        {facets &&
          FIELDS.map(({ field, label }) => {
            const options = optionsFor(field, facets, language, counts);
            if (options.length < (field === 'tags' ? 1 : 2) && filters[field].length === 0) return null;
            const chosen = filters[field];
            const text =
              chosen.length === 0
                ? t(label)
                : chosen.length === 1
                  ? t('filters.chosen', {
                      name: t(label),
                      value: valueLabel(field, chosen[0]!, facets, language),
                    })
                  : t('filters.chosenMany', { name: t(label), count: chosen.length });
            return (
              <FilterPopover key={field} label={t(label)} text={text} active={chosen.length > 0}>
                <CheckList
                  options={options}
                  matching={counts !== null}
                  floor={moreMayMatch}
                  selected={chosen}
                  onToggle={(value) => setFilters({ [field]: toggled(chosen as string[], value) })}
                  {...(field === 'tags' ? { findLabel: t('filters.findTag') } : {})}
                />
              </FilterPopover>
            );
          })}
        <FilterPopover
          label={t('filters.modified')}
          text={
            filters.date === 'any'
              ? t('filters.modified')
              : t('filters.chosen', { name: t('filters.modified'), value: dateText(filters, t) })
          }
          active={filters.date !== 'any'}
        >
          <DateChoice filters={filters} onChange={setFilters} t={t} />
        </FilterPopover>
        {active > 0 && (
          <button type="button" className="button quiet filter-clear" onClick={clear}>
            {t('filters.clear')}
          </button>
        )}
      </div>
      {chips.length > 0 && (
        <ul className="filter-chips" aria-label={t('filters.active', { count: active })}>
          {chips.map((chip) => (
            <li key={chip.key} className="filter-chip">
              <span>{chip.text}</span>
              <button
                type="button"
                className="filter-chip-remove"
                aria-label={t('filters.remove', { name: chip.text })}
                onClick={chip.remove}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function DateChoice({
  filters,
  onChange,
  t,
}: {
  filters: FilterState;
  onChange: (change: Partial<FilterState>) => void;
  t: Translate;
}) {
  const valid = customRangeValid(filters);
  return (
    <fieldset className="filter-dates">
      <legend className="visually-hidden">{t('filters.modified')}</legend>
      {PRESETS.map((preset) => (
        <label key={preset} className="filter-option">
          <input
            type="radio"
            name="filter-date"
            checked={filters.date === preset}
            onChange={() => onChange({ date: preset })}
          />
          <span className="filter-option-label">{t(`filters.date.${preset}`)}</span>
        </label>
      ))}
      {filters.date === 'custom' && (
        <div className="filter-range">
          <label>
            <span>{t('filters.from')}</span>
            <input
              type="date"
              value={filters.from}
              max={filters.to || undefined}
              onChange={(event) => onChange({ from: event.target.value })}
            />
          </label>
          <label>
            <span>{t('filters.to')}</span>
            <input
              type="date"
              value={filters.to}
              min={filters.from || undefined}
              onChange={(event) => onChange({ to: event.target.value })}
            />
          </label>
          {!valid && (
            <p className="form-error" role="alert">
              {t('filters.badRange')}
            </p>
          )}
        </div>
      )}
    </fieldset>
  );
}
