import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useT } from '../../hooks/use-t';

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
                <span aria-hidden="true">
                  {option.documents}
                  {matching && floor && option.documents > 0 ? '+' : ''}
                </span>
                <span className="visually-hidden">
                  {t(
                    !matching
                      ? 'filters.documents'
                      : floor && option.documents > 0
                        ? 'filters.documentsMatchingAtLeast'
                        : 'filters.documentsMatching',
                    {
                      count: option.documents,
                    },
                  )}
                </span>
              </span>
            </label>
          </li>
        ))}
        {shown.length === 0 && <li className="filter-none muted">{t('filters.noneFound')}</li>}
      </ul>
    </>
  );
}
