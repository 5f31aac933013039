// An upstream failure, in the translator's terms: `not_found` when the upstream has no such thing (404/410),
// `upstream` when it could not be used. build/ knows no HTTP answers: the API turns it into a DomainError of
// the same problem (api/services/errors.ts fromUpstream), the importer reports its message.
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  readonly status: 404 | 502;
  readonly problem: 'not_found' | 'upstream';
  readonly tooLarge: boolean;
  /** The upstream's HTTP status when it answered one (the importer retries 429 and 5xx). */
  readonly httpStatus: number | undefined;
  /** The network error code when no answer came (ENOTFOUND, ECONNRESET, ETIMEDOUT, EPRIVATE …). */
  readonly code: string | undefined;
  constructor(
    status: 404 | 502,
    message: string,
    options: { tooLarge?: boolean; httpStatus?: number; code?: string } = {},
  ) {
    super(message);
    this.status = status;
    this.problem = status === 404 ? 'not_found' : 'upstream';
    this.tooLarge = options.tooLarge ?? false;
    this.httpStatus = options.httpStatus;
    this.code = options.code;
  }
}
