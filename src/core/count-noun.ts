/**
 * A count with its noun in the right number: `countNoun(1, 'step')` is
 * "1 step", `countNoun(3, 'step')` is "3 steps"; irregular plurals are passed.
 */
export function countNoun(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
