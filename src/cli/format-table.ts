/** Column alignment for {@link formatTable}. */
export type Align = 'left' | 'right';

/** Formats rows as a plain-text table with a header row, columns padded to fit. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[], align: readonly Align[] = []): string {
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const render = (row: readonly string[]): string =>
    row
      .map((cell, column) => {
        const width = widths[column] ?? cell.length;
        return align[column] === 'right' ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  return [render(header), ...rows.map(render)].join('\n');
}
