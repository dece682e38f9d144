/** What an Idempotency-Key may be: 1 to 255 printable ASCII characters, no spaces (the document shows the same). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
