/** Teltonika codec ids (Teltonika Data Sending Protocols; codec 7 is the GH3000 personal tracker's). */
export const CODEC = { gh3000: 0x07, c8: 0x08, c8e: 0x8e, c12: 0x0c, c13: 0x0d, c14: 0x0e, c16: 0x10 } as const;

/** Message type labels for metrics and `pnpm decode`. */
export function codecLabel(codec: number): string {
  switch (codec) {
    case CODEC.gh3000:
      return 'codec7';
    case CODEC.c8:
      return 'codec8';
    case CODEC.c8e:
      return 'codec8e';
    case CODEC.c12:
      return 'codec12';
    case CODEC.c13:
      return 'codec13';
    case CODEC.c14:
      return 'codec14';
    case CODEC.c16:
      return 'codec16';
    default:
      return 'other';
  }
}

export const COMMAND_CODECS: ReadonlySet<number> = new Set([CODEC.c12, CODEC.c13, CODEC.c14]);
