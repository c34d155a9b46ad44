/**
 * Whether a flag has been true at least once in this component's life: a part loaded and mounted
 * only once wanted (a dialog once opened) stays mounted after, so it closes with its
 * animation and keeps its state. Set while rendering (React's state adjusted from props), so the
 * part mounts in the very render that first wants it.
 */
import { useState } from 'react';

export function useHasBeenTrue(flag: boolean): boolean {
  const [was, setWas] = useState(flag);
  if (flag && !was) setWas(true);
  return was || flag;
}
