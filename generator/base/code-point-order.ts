/** Orders strings by UTF-16 code unit, the same on every machine and locale. */
export function codePointCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
