import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useT } from '../../hooks/use-t';
import type { Translate } from '../../i18n/i18n';

/**
 * One filter's button and its popover (a disclosure, as in Raycast's and Obsidian's filter menus):
 * opening moves focus into it; Escape, a click outside or tabbing out closes it, Escape returning
 * focus to the button.
 */
export function FilterPopover({
  label,
  text,
  active,
  children,
}: {
  /** The filter's name: the panel's accessible name (the button reads its text, which starts with it). */
  label: string;
  /** What the button shows: the name, or the choice ("Tag: 发布"). */
  text: string;
  active: boolean;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector<HTMLElement>('input, button, select')?.focus();
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  return (
    <div
      className="filter-menu"
      ref={root}
      onBlur={(event) => {
        if (open && !root.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        className={`filter-trigger${active ? ' active' : ''}`}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
      >
        <span className="filter-trigger-text">{text}</span>
        <span aria-hidden="true" className="filter-caret">
          ▾
        </span>
      </button>
      {open && (
        <div
          id={panelId}
          ref={panel}
          className="filter-panel"
          role="group"
          aria-label={label}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && !event.nativeEvent.isComposing) {
              event.stopPropagation();
              setOpen(false);
              button.current?.focus();
            }
          }}
        >
          {children}
        </div>
      )}
    </div>
  );
}

export interface FilterOption {
  value: string;
  label: string;
  /** A second line (e.g. the connection a knowledge base belongs to). */
  detail?: string;
  documents: number;
}

/** What a screen reader hears for one option's count (the number alone is shown). */
function countText(documents: number, matching: boolean, floor: boolean, t: Translate): string {
  const one = documents === 1;
  if (!matching) return t(one ? 'filters.documentsOne' : 'filters.documents', { count: documents });
  if (!floor)
    return t(one ? 'filters.documentsMatchingOne' : 'filters.documentsMatching', { count: documents });
  // A value none of the counted documents holds may be held by one past them: not "0 matching".
  if (documents === 0) return t('filters.documentsMatchingNoneYet');
  return t(one ? 'filters.documentsMatchingAtLeastOne' : 'filters.documentsMatchingAtLeast', {
    count: documents,
  });
}

/** Checkboxes with document counts; a find box when the list is long (tags). */
export function CheckList({
  options,
  selected,
  onToggle,
  findLabel,
  matching = false,
  floor = false,
}: {
  options: FilterOption[];
  /** The counts are of the search's matching documents, not the whole index. */
  matching?: boolean;
  /** The matching counts are floors: more documents may match than the search's candidates hold. */
  floor?: boolean;
  selected: readonly string[];
  onToggle: (value: string) => void;
  findLabel?: string;
}) {
  const t = useT();
  const [find, setFind] = useState('');
  const needle = find.trim().toLowerCase();
  const shown = needle ? options.filter((o) => o.label.toLowerCase().includes(needle)) : options;
  return (
    <>
      {findLabel && options.length > 8 && (
        <input
          type="search"
          className="filter-find"
          aria-label={findLabel}
          placeholder={findLabel}
          value={find}
          onChange={(event) => setFind(event.target.value)}
        />
      )}
      <ul className="filter-options">
        {shown.map((option) => (
          <li key={option.value}>
            <label className="filter-option">
              <input
                type="checkbox"
                checked={selected.includes(option.value)}
                onChange={() => onToggle(option.value)}
              />
              <span className="filter-option-label">
                {option.label}
                {option.detail && <span className="filter-option-detail">{option.detail}</span>}
              </span>
              <span className="filter-count">
                {/* A floor is marked "+" even at 0: a value none of the counted documents holds
                    may still be held by one past them, so the menu must not say it matches none. */}
                <span aria-hidden="true">
                  {option.documents}
                  {matching && floor ? '+' : ''}
                </span>
                <span className="visually-hidden">{countText(option.documents, matching, floor, t)}</span>
              </span>
            </label>
          </li>
        ))}
        {shown.length === 0 && <li className="filter-none muted">{t('filters.noneFound')}</li>}
      </ul>
      {/* Said in the menu, not only in a tooltip: "0+" and "3+" need their reason where they are read. */}
      {matching && floor && <p className="filter-floor-note">{t('filters.countsAreFloors')}</p>}
    </>
  );
}
