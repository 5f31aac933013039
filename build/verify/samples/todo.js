// TODO: handle empty input
export function total(xs) {
  // FIXME: floating point rounding
  return xs.reduce((a, b) => a + b, 0);
}
/* HACK: keep the old name until callers move */
export const sum = total;
