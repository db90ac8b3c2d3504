/** Plain text kept as is, apart from line endings. */
export const plainText = (text: string): string => text.replace(/\r\n?/g, "\n")
