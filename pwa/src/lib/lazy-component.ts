import { lazy, type ComponentType } from 'react';

/** React.lazy for a named export (the app has no default exports). */
export function lazyComponent<K extends string, P extends object>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
) {
  return lazy(async () => ({ default: (await load())[name] }));
}
