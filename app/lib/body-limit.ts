// How large a body a page accepts. The server reads every page's body under its route's limit
// (server/http/pages.ts); a route module that takes more — an upload — says so in its `handle`:
//   export const handle = { bodyLimit: AVATAR_MAX_BYTES + UPLOAD_FRAMING_BYTES, answersOversizedBody: true };

/** Page forms: every field of the largest form (an ad with its description and attributes) fits. */
export const FORM_BODY_LIMIT = 256 * 1024;
/** Room for the other fields and the multipart framing around an uploaded file. */
export const UPLOAD_FRAMING_BYTES = 64 * 1024;

/** What a route module's `handle` may say about the bodies its action accepts. */
export interface BodyLimitHandle {
  /** Bytes of body this route's action reads; FORM_BODY_LIMIT when absent. */
  bodyLimit?: number;
  /**
   * The action answers an oversized body itself (it finds `requestInfo(context).bodyTooLarge` set
   * and no body), e.g. with a field error; otherwise the root middleware answers 413.
   */
  answersOversizedBody?: boolean;
}
