/** Rounds to one decimal: the report's ms and % figures are shown that way. */
export const oneDecimal = (value: number) => Math.round(value * 10) / 10;
