// The order vitest starts the test files in. Vitest's own order puts the files that took longest in the last run
// first, which keeps a long file from starting last and running on alone; without that record (a fresh clone, CI) it
// goes by file size, and the longest files here are small ones that build the package, run a server or start many
// processes. This order starts those first whatever vitest remembers, then the rest in vitest's own order.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The files that take longest, longest first (paths from the project folder). */
export const SLOW_FILES: readonly string[] = [
  'test/scripts/check-package.test.ts',
  'test/docs/code-blocks.test.ts',
  'test/cli/doctor-command.test.ts',
  'test/cli/calibrate-stall-command.test.ts',
  'test/integrations/langgraph/durable-postgres.test.ts',
  'test/core/stall-detection/observe-step.test.ts',
  'test/cli/live-scoring.test.ts',
  'test/cli/hook-command.test.ts',
  'test/cli/init-command.test.ts',
  'test/cli/calibrate-command.test.ts',
  'test/scenarios/stop-scenarios.test.ts',
  'test/docs/newcomer-path.test.ts',
];

export class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const at = SLOW_FILES.indexOf(relative(spec.project.config.root, spec.moduleId).split('\\').join('/'));
      return at === -1 ? SLOW_FILES.length : at;
    };
    // The projects keep the order vitest gave them; within each, the slow files go first.
    const projects = [...new Set(sorted.map((spec) => spec.project.name))];
    return sorted
      .map((spec, index) => ({ spec, index }))
      .sort((a, b) => projects.indexOf(a.spec.project.name) - projects.indexOf(b.spec.project.name) || rank(a.spec) - rank(b.spec) || a.index - b.index)
      .map(({ spec }) => spec);
  }
}
