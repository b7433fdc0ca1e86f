import { useCallback } from 'react';
import { useApp } from '../../store/store-context';

export function useOpenExternal(): (url: string) => Promise<void> {
  const openExternal = useApp((state) => state.openExternal);
  return useCallback((url: string) => openExternal(url), [openExternal]);
}
