/**
 * A heavy, secondary part of a page (the dashboards' Recharts charts) mounted after the page has
 * painted. First its placeholder, of the part's exact size so nothing moves; after the
 * commit and one macrotask (the browser paints what is there, the log's rows included) the part
 * mounts inside a transition, so React renders it in time slices instead of one long task that
 * blocks input. The placeholder's measured width goes to the part, so a chart that sizes itself
 * (ResponsiveContainer) starts at its real size and does not render again, synchronously, when it
 * measures.
 */
import { type ReactNode, type Ref, startTransition, useEffect, useRef, useState } from 'react';

export function AfterPaint({
  placeholder,
  children,
}: {
  placeholder: (ref: Ref<HTMLDivElement>) => ReactNode;
  children: (width: number) => ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => {
      const measured = Math.round(ref.current?.getBoundingClientRect().width ?? 0);
      startTransition(() => setWidth(measured));
    }, 0);
    return () => clearTimeout(timer);
  }, []);
  return width === null ? placeholder(ref) : children(width);
}
