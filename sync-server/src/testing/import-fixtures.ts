import type { FastifyInstance } from 'fastify';
import type { ImportStatus } from '@platform/schema/imports/import.zod';
import type { CookieJar } from './cookie-jar.ts';
import { drainJobs } from './job-fixtures.ts';

/** The import calls as a browser makes them (issue 17), for one app and one signed-in jar. */
export function importCalls(app: FastifyInstance) {
  const create = (jar: CookieJar, body: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/api/imports', headers: jar.headers(), payload: body });
  const putChunk = (jar: CookieJar, id: string, seq: number, bytes: Buffer) =>
    app.inject({
      method: 'PUT',
      url: `/api/imports/${id}/chunks/${seq}`,
      headers: { ...jar.headers(), 'content-type': 'application/octet-stream' },
      payload: bytes,
    });
  const start = (jar: CookieJar, id: string) =>
    app.inject({ method: 'POST', url: `/api/imports/${id}/start`, headers: jar.headers() });
  const status = (jar: CookieJar, id: string) =>
    app.inject({ method: 'GET', url: `/api/imports/${id}`, headers: jar.headers() });

  /** Uploads a file in one chunk as a browser does, not started: the import's id. */
  async function uploaded(jar: CookieJar, kind: string, text: string): Promise<string> {
    const bytes = Buffer.from(text, 'utf8');
    const created = await create(jar, { kind, fileName: `${kind}.csv`, totalBytes: bytes.length });
    if (created.statusCode !== 201)
      throw new Error(`create: ${created.statusCode} ${created.body}`);
    const { id } = created.json<{ id: string }>();
    const sent = await putChunk(jar, id, 0, bytes);
    if (sent.statusCode !== 200) throw new Error(`chunk: ${sent.statusCode} ${sent.body}`);
    return id;
  }

  /**
   * Creates an import, sends the file in chunks of `chunk` bytes, starts it, runs the job, and
   * answers how it ended. Throws on any call that is refused.
   */
  async function importFile(
    jar: CookieJar,
    kind: string,
    text: string | Buffer,
    chunk = 64,
  ): Promise<ImportStatus> {
    const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
    const created = await create(jar, { kind, fileName: `${kind}.csv`, totalBytes: bytes.length });
    if (created.statusCode !== 201)
      throw new Error(`create: ${created.statusCode} ${created.body}`);
    const { id } = created.json<{ id: string }>();
    for (let seq = 0; seq * chunk < bytes.length; seq++) {
      const sent = await putChunk(jar, id, seq, bytes.subarray(seq * chunk, (seq + 1) * chunk));
      if (sent.statusCode !== 200) throw new Error(`chunk ${seq}: ${sent.statusCode} ${sent.body}`);
    }
    const started = await start(jar, id);
    if (started.statusCode !== 200) throw new Error(`start: ${started.statusCode} ${started.body}`);
    await drainJobs(app);
    return (await status(jar, id)).json<ImportStatus>();
  }

  return { create, putChunk, start, status, uploaded, importFile };
}
