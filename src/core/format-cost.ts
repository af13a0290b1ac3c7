/**
 * An amount of money as people read it: rounded to 4 decimals, with trailing
 * zeros dropped down to 2 (cents), so that sums of floating-point prices
 * never print as `2.0100000000000002`. An amount above 0 that rounds to 0
 * prints as `<0.0001`; a value that is not a finite number prints as it is.
 *
 * @example
 * formatCost(2.0100000000000002); // '2.01'
 * formatCost(0.00042); // '0.0004'
 */
export function formatCost(cost: number): string {
  if (typeof cost !== 'number' || !Number.isFinite(cost)) return String(cost);
  const sign = cost < 0 ? '-' : '';
  const amount = Math.abs(cost);
  let text = amount.toFixed(4);
  if (amount > 0 && /^0\.0+$/.test(text)) return `${sign}<0.0001`;
  while (text.endsWith('0') && text.length - text.indexOf('.') > 3) text = text.slice(0, -1);
  return text === '0.00' ? '0.00' : `${sign}${text}`;
}
