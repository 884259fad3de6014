import { useCallback, useEffect, useState } from 'react';
import { deleteTrace, type LibraryEntry, listTraces, renameTrace } from './index';

/** The library's entries, kept in step with every change made through these actions. */
export function useLibrary() {
  const [entries, setEntries] = useState<LibraryEntry[]>([]);
  const [error, setError] = useState<string>();
  const refresh = useCallback(async () => {
    try {
      setEntries(await listTraces());
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  }, []);
  useEffect(() => void refresh(), [refresh]);
  const act = useCallback(
    async (work: () => Promise<unknown>) => {
      setError(undefined);
      try {
        await work();
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
      }
      await refresh();
    },
    [refresh],
  );
  return {
    entries,
    error,
    refresh,
    rename: (hash: string, name: string) => act(() => renameTrace(hash, name)),
    remove: (hash: string) => act(() => deleteTrace(hash)),
  };
}

export type Library = ReturnType<typeof useLibrary>;
