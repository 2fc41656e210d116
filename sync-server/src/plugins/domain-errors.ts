/** Services throw these; plugins/http-map.ts alone turns them into statuses. */
export class DomainError extends Error {
  constructor(
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
  /** The answer's body; a feature whose forms read their own shape overrides it (spec §7, §8). */
  toBody(): unknown {
    return { error: this.name, message: this.message, details: this.details };
  }
}
export class ValidationFailed extends DomainError {}
export class Unauthenticated extends DomainError {}
export class Forbidden extends DomainError {}
export class NotFound extends DomainError {}
export class Conflict extends DomainError {}
export class RuleBroken extends DomainError {}
export class TooManyRequests extends DomainError {}
/** Something the request needs is out of reach for a moment (503 with a retry hint). */
export class ServiceUnavailable extends DomainError {}

/**
 * An import's rows that the server's own check refused after the preview passed them (what only
 * the server knows): the import ends refused with these rows, nothing written.
 */
export class RowsRefused extends Error {
  constructor(readonly rowErrors: Array<{ row: number; message: string; cells: string[] }>) {
    super('rows refused');
  }
}
