/**
 * Light or dark: follows the system (prefers-color-scheme) until the user picks one, which is kept
 * in this browser profile / app window (localStorage): a look of this screen, not a setting of the
 * index, so core never hears of it.
 */
export type ThemeChoice = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

const KEY = 'cairn.theme';

export function storedTheme(storage: Pick<Storage, 'getItem'> | undefined): ThemeChoice {
  try {
    const value = storage?.getItem(KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system';
  }
}

export function storeTheme(
  storage: Pick<Storage, 'setItem' | 'removeItem'> | undefined,
  choice: ThemeChoice,
) {
  try {
    if (choice === 'system') storage?.removeItem(KEY);
    else storage?.setItem(KEY, choice);
  } catch {
    // storage refused (private mode): the choice lasts until reload
  }
}

export function effectiveTheme(choice: ThemeChoice, systemPrefersDark: boolean): Theme {
  return choice === 'system' ? (systemPrefersDark ? 'dark' : 'light') : choice;
}
