// Domain errors. One mapper (apiErrorHandler in server/http/api.ts for the API, withDomainErrors in
// server/http/pages.ts for pages) turns them into HTTP.
export type FieldErrors = Record<string, string[]>;

export class DomainError extends Error {
  status = 500;
}
export class NotFound extends DomainError {
  override name = 'NotFound';
  override status = 404;
}
export class Forbidden extends DomainError {
  override name = 'Forbidden';
  override status = 403;
}
export class Conflict extends DomainError {
  override name = 'Conflict';
  override status = 409;
}
/** Invalid input. `errors` holds message keys (validation.*) per field, translated at the edge. */
export class Invalid extends DomainError {
  override name = 'Invalid';
  override status = 422;
  errors: FieldErrors;
  constructor(errors: FieldErrors, message = 'validation.invalid') {
    super(message);
    this.errors = errors;
  }
}
export class TooManyRequests extends DomainError {
  override name = 'TooManyRequests';
  override status = 429;
  retryAfter: number;
  constructor(retryAfterSeconds: number) {
    super('errors.too-many-requests');
    this.retryAfter = retryAfterSeconds;
  }
}
