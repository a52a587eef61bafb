/** The header a write answers its consistency token in and a read sends it back in (docs/api.md). */
export const CONSISTENCY_HEADER = "Zaxy-Consistency";

/** The token lsn:<hex>/<hex> as one number, or undefined for any other form. */
function lsn(token: string): bigint | undefined {
  const m = /^lsn:([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(token);
  if (!m) return undefined;
  return (BigInt("0x" + m[1]) << 32n) | BigInt("0x" + m[2]);
}

/**
 * Consistency holds the latest token a write answered. A token earlier than the one held is
 * ignored, so answers arriving out of order never move the session back; a token of a form
 * the client cannot compare replaces the one held.
 */
export class Consistency {
  #token = "";

  constructor(token?: string) {
    this.observe(token);
  }

  get token(): string {
    return this.#token;
  }

  observe(token: string | null | undefined): void {
    if (!token) return;
    const held = lsn(this.#token);
    const next = lsn(token);
    if (held !== undefined && next !== undefined && next <= held) return;
    this.#token = token;
  }
}
