/**
 * `text` cut to at most `max` UTF-16 code units, `marker` last, never between
 * the two halves of a surrogate pair; text that fits is returned as it is.
 *
 * @example
 * cutText('abc🎉🎉', 5); // 'abc…' (not 'abc\uD83C…')
 */
export function cutText(text: string, max: number, marker = '…'): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - marker.length);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}${marker}`;
}
