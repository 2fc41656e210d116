import { useEffect, useState } from 'react';
import { getCrmTags } from '../api/customer-details.ts';

/** The organisation's tags for the filter; offline, the tags of the rows at hand. */
export function useCrmTags(online: boolean, fallback: readonly string[]): string[] {
  const [tags, setTags] = useState<string[] | null>(null);
  useEffect(() => {
    if (!online) return;
    const controller = new AbortController();
    getCrmTags(controller.signal).then(setTags, () => {});
    return () => controller.abort();
  }, [online]);
  return tags ?? [...new Set(fallback)].sort((a, b) => a.localeCompare(b));
}
