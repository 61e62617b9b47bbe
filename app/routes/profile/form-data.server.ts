// Reading a form post whose body may carry an upload, without letting a huge body fill memory.

/** Room for the other fields and the multipart framing around a file of the maximum size. */
const FRAMING_BYTES = 64 * 1024;
/**
 * An oversized upload is still read to the end up to this size, so the browser gets our
 * translated answer instead of a connection reset; beyond it the connection is cut.
 */
const DRAIN_LIMIT_FACTOR = 4;

/** The form of `request`, or `null` when its body is larger than a `maxFileBytes` upload allows. */
export async function readFormWithin(request: Request, maxFileBytes: number): Promise<FormData | null> {
  const limit = maxFileBytes + FRAMING_BYTES;
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (!request.body) return request.formData();
  if (Number.isFinite(declared) && declared > limit * DRAIN_LIMIT_FACTOR) {
    await request.body.cancel().catch(() => {});
    return null;
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit * DRAIN_LIMIT_FACTOR) {
      await reader.cancel().catch(() => {});
      return null;
    }
    if (total <= limit) chunks.push(value);
  }
  if (total > limit) return null;
  const type = request.headers.get('content-type') ?? '';
  return new Response(Buffer.concat(chunks), { headers: { 'content-type': type } }).formData();
}
