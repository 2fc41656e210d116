/** Services throw these; plugins/http-map.ts alone turns them into statuses. */
export class DomainError extends Error {
  constructor(
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
export class ValidationFailed extends DomainError {}
export class Unauthenticated extends DomainError {}
export class Forbidden extends DomainError {}
export class NotFound extends DomainError {}
export class Conflict extends DomainError {}
export class RuleBroken extends DomainError {}
export class TooManyRequests extends DomainError {}
