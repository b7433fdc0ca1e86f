import { useCallback } from 'react';
import { useApp } from '../../store/store-context';

export function useOpenExternal(): (url: string, page?: number) => Promise<void> {
  const openExternal = useApp((state) => state.openExternal);
  return useCallback((url: string, page?: number) => openExternal(url, page), [openExternal]);
}
