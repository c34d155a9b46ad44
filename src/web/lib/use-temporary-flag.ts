/** A flag that turns itself off `ms` after it was last raised: a "Copied!" label, a brief highlight. */
import { useCallback, useEffect, useRef, useState } from 'react';

export function useTemporaryFlag(ms: number): [on: boolean, raise: () => void] {
  const [on, setOn] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const raise = useCallback(() => {
    setOn(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setOn(false), ms);
  }, [ms]);

  return [on, raise];
}
