/** `YYYYMMDD_HHMMSS` in UTC, as Hermes names generated media files: names sort by time. */
export const compactStamp = (date: Date): string =>
  date.toISOString().replace(/[-:]/g, "").replace("T", "_").slice(0, 15)
