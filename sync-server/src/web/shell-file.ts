import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g;

/**
 * The built app shell (pwa/dist/index.html), read again only when a new build replaced it;
 * its inline scripts' hashes are what the Content-Security-Policy allows of inline script.
 */
export class ShellFile {
  private cached = { mtimeMs: -1, html: '', scriptHashes: [] as string[] };

  constructor(readonly file: string) {}

  exists(): boolean {
    return existsSync(this.file);
  }

  html(): string {
    return this.current().html;
  }

  /** `'sha256-…'` sources, one per inline script, in the order they appear. */
  scriptHashes(): readonly string[] {
    return this.exists() ? this.current().scriptHashes : [];
  }

  private current() {
    const { mtimeMs } = statSync(this.file);
    if (mtimeMs !== this.cached.mtimeMs) {
      const html = readFileSync(this.file, 'utf8');
      const scriptHashes = [...html.matchAll(INLINE_SCRIPT)].map(
        (match) =>
          `'sha256-${createHash('sha256')
            .update(match[1] ?? '')
            .digest('base64')}'`,
      );
      this.cached = { mtimeMs, html, scriptHashes };
    }
    return this.cached;
  }
}
