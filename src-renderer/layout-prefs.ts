/**
 * Which panels a narrow window folds away: the sidebar (down to its icons) and the Ask page's list
 * of conversations. Kept like the theme, in this browser profile / app window (localStorage): a
 * look of this screen, not a setting of the index.
 */
export interface LayoutPrefs {
  /** The sidebar shows its icons only. */
  sidebarCollapsed: boolean;
  /** The Ask page hides its list of past conversations. */
  conversationsHidden: boolean;
}

const KEYS: Record<keyof LayoutPrefs, string> = {
  sidebarCollapsed: 'cairn.sidebar.collapsed',
  conversationsHidden: 'cairn.conversations.hidden',
};

export function storedLayout(storage: Pick<Storage, 'getItem'> | undefined): LayoutPrefs {
  const read = (key: keyof LayoutPrefs) => {
    try {
      return storage?.getItem(KEYS[key]) === '1';
    } catch {
      return false;
    }
  };
  return { sidebarCollapsed: read('sidebarCollapsed'), conversationsHidden: read('conversationsHidden') };
}

export function storeLayout(
  storage: Pick<Storage, 'setItem' | 'removeItem'> | undefined,
  key: keyof LayoutPrefs,
  value: boolean,
): void {
  try {
    if (value) storage?.setItem(KEYS[key], '1');
    else storage?.removeItem(KEYS[key]);
  } catch {
    // storage refused (private mode): the choice lasts until reload
  }
}
