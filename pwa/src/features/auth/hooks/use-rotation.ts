import { useEffect, useState, useSyncExternalStore } from 'react';

const reducedMotionQuery = '(prefers-reduced-motion: reduce)';

export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    (listener) => {
      const media = window.matchMedia(reducedMotionQuery);
      media.addEventListener('change', listener);
      return () => media.removeEventListener('change', listener);
    },
    () => window.matchMedia(reducedMotionQuery).matches,
    () => false,
  );
}

/**
 * Moves through `count` items every `intervalMs`; stands still while paused (hover, focus)
 * and whenever the person asked for reduced motion.
 */
export function useRotation(count: number, intervalMs: number) {
  const reducedMotion = usePrefersReducedMotion();
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const rotating = !reducedMotion && !paused && count > 1;
  useEffect(() => {
    if (!rotating) return;
    const timer = window.setInterval(
      () => setIndex((current) => (current + 1) % count),
      intervalMs,
    );
    return () => window.clearInterval(timer);
  }, [rotating, count, intervalMs]);
  return { index, setIndex, setPaused, rotating };
}
