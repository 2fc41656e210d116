type InjectedCookie = { name: string; value: string; maxAge?: number; expires?: Date };

/** Carries cookies between `inject` calls the way a browser would (set, replace, clear). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(response: { cookies: InjectedCookie[] }): this {
    for (const cookie of response.cookies) {
      const cleared =
        cookie.maxAge === 0 ||
        (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now());
      if (cleared || cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return this;
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  set(name: string, value: string): this {
    this.cookies.set(name, value);
    return this;
  }

  delete(name: string): this {
    this.cookies.delete(name);
    return this;
  }

  /** Spread into inject's `headers`. */
  headers(): { cookie?: string } {
    if (this.cookies.size === 0) return {};
    return { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
  }
}
