import { createContext, useContext, useSyncExternalStore } from 'react';
import type { SimState, SimStore } from './store';

export const StoreContext = createContext<SimStore | null>(null);

/** The app's store (provided once at the root). */
export function useStore(): SimStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useStore outside <StoreContext.Provider>');
  return store;
}

/** Subscribes to one slice of the store; re-renders only when that slice changes. */
export function useSim<T>(select: (s: SimState) => T): T {
  const store = useStore();
  return useSyncExternalStore(store.subscribe, () => select(store.getState()));
}
