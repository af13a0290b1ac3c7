/**
 * Sets `record[key] = value` as an own, enumerable property, also when `key`
 * is `__proto__` (a plain assignment would change the prototype instead and
 * the entry would vanish). Use it wherever keys come from untrusted input.
 */
export function setOwnProperty<T>(record: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') {
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    record[key] = value;
  }
}
