import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { launcherPath } from '../../../src/hosts/hook-command.js';
import { HOSTS } from '../../../src/hosts/host.js';
import { DEFAULT_TOOL_GUARD_OPTIONS, fitToolGuardToHost } from '../../../src/hosts/tool-guard.js';
import type { HostExpectations } from './host-expectations.js';
import { locateHostCli, type HostCli } from './host-cli.js';
import { check, scenario, verify, type ScenarioRun } from './host-scenario.js';
import type { HostUnderTest } from './host-under-test.js';
import type { ModelTurn } from './model-turn.js';
import { BROKEN_MATH, editConfig, FIX_COMMAND, MATH_TEST, readProjectFile, type OutcomeLine, type ScratchProject, type SessionStateFile } from './scratch-project.js';
import { firstRequestWith, placementsIn } from './session-text.js';
import {
  CONFIG_INVALID,
  FAILED_TEST_MESSAGE,
  FAILED_TEST_REASON,
  GUARD_HANDED_OFF,
  HANDED_OFF,
  NO_TESTS_REASON,
  NUDGE,
  PERSON_ASKED,
  REFUSED,
} from './stopwise-texts.js';

/** The failing command the repeated-call scenario runs: its output is the same every time but for what stopwise treats as volatile. */
const REPEATED_COMMAND = 'echo call >> .calls; node --test --test-reporter=dot';

/** Distinct end-of-turn texts: the hosts' own repetition checks must not fire on them. */
export const distinctTexts = (count: number): ModelTurn[] =>
  Array.from({ length: count }, (_, index) => ({ text: `Attempt ${index + 1}: I changed file-${(index * 37) % 101}.js; it should pass now.` }));

/** A test that passes, as the scripted agent writes it with the shell. */
const WRITE_TEST_COMMAND = `mkdir -p test && cat > test/math.test.js <<'EOF'\n${MATH_TEST}EOF`;

/** The one outcome record of a run, its exit and the reason or question it gives. */
function onlyOutcome(run: ScenarioRun): OutcomeLine['outcome'] {
  expect(run.outcomes, 'outcome records').toHaveLength(1);
  return (run.outcomes[0] as OutcomeLine).outcome;
}

/** The one session state of a run (one agent, one session). */
function onlyState(run: ScenarioRun): SessionStateFile {
  expect(run.states, 'session states').toHaveLength(1);
  return run.states[0] as SessionStateFile;
}

/**
 * The suite of one host: skipped with a one-line reason when its CLI is not
 * installed (a failure under `CI=true`), else the scenarios every host runs,
 * then the host's own (`extra`).
 */
export function describeHost(
  host: HostUnderTest,
  expected: HostExpectations,
  extra: (cli: Extract<HostCli, { ok: true }>) => void = () => undefined,
): void {
  const cli = locateHostCli(host.name);
  if (!cli.ok) {
    if (process.env.CI === 'true') {
      describe(host.label, () => it('has its pinned CLI installed', () => expect.fail(cli.reason)));
    } else {
      console.warn(`host suite: ${host.label} skipped: ${cli.reason}`);
      describe.skip(`${host.label} (skipped: ${cli.reason})`, () => it('runs', () => undefined));
    }
    return;
  }
  const known = expected.knownProblems ?? {};
  describe(`${host.label} ${cli.version}`, () => {
    scenario(host, cli, 'red then green', { script: [{ text: 'I ran the tests; done.' }, { shell: FIX_COMMAND }, { text: 'Fixed it; done now.' }] }, (run) => {
      verify('blocks the first stop: the model reads the failing test and its message in its next request', () => {
        const { session } = run();
        expect(firstRequestWith(session, FAILED_TEST_REASON)).toBe(1);
        expect(placementsIn(session, 1, FAILED_TEST_MESSAGE).length).toBeGreaterThan(0);
      });
      verify('lets the stop after the fix through: the run ends, one outcome of success', () => {
        const { session, project } = run();
        expect(session.run.code).toBe(0);
        expect(session.main).toHaveLength(3);
        expect(readProjectFile(project, 'math.js')).toContain('a + b');
        const outcome = onlyOutcome(run());
        expect(outcome.exit).toBe('success');
        expect(outcome.decision?.reason).toBe('passed_after_block');
        expect(onlyState(run()).lastStop?.kind).toBe('allow');
      });
      for (const [index, wrapper] of expected.reasonWrappers.entries()) {
        verify(`puts at most so many characters before the reason: ${wrapper.name}`, () => {
          const { session, project } = run();
          const placements = placementsIn(session, 1, FAILED_TEST_REASON);
          expect(placements, 'the places the reason lands').toHaveLength(expected.reasonWrappers.length);
          const placement = placements[index];
          const before = wrapper.before(project);
          if (typeof before === 'string') expect(placement?.before).toBe(before);
          else expect(placement?.before).toMatch(before);
          expect(placement?.offset).toBeLessThanOrEqual(wrapper.maxChars(project));
        });
      }
      verify(expected.person.block === undefined ? 'prints nothing of the reason for the person' : 'shows the person the block', () => {
        const { session } = run();
        if (expected.person.block === undefined) expect(session.personOutput).not.toContain(FAILED_TEST_REASON);
        else expect(session.personOutput).toContain(expected.person.block(FAILED_TEST_REASON));
      });
      check("records the run as going on after the block (the host's re-entry flag is read)", known.runNotEndedByHost, () => {
        expect(onlyState(run()).lastStop?.previousRunEndedBy).toBeUndefined();
      });
    });

    scenario(host, cli, 'an agent that never fixes', { script: distinctTexts(10) }, (run) => {
      verify('blocks once, then stopwise hands off at the next stop: it, not the host, ends the run', () => {
        const { session } = run();
        expect(session.run.code).toBe(0);
        expect(session.main).toHaveLength(2);
        expect(firstRequestWith(session, FAILED_TEST_REASON)).toBe(1);
        const outcome = onlyOutcome(run());
        expect(outcome.exit).toBe('need_help');
        expect(outcome.decision?.reason).toBe('tests_failed_after_block');
        expect(outcome.question).toContain(HANDED_OFF);
        expect(onlyState(run()).lastStop?.kind).toBe('handoff');
      });
      personLineCheck(expected, run, HANDED_OFF);
    });

    scenario(
      host,
      cli,
      'no test ran',
      {
        files: { 'math.js': BROKEN_MATH.replace('a - b', 'a + b') },
        script: [{ text: 'Done.' }, { shell: WRITE_TEST_COMMAND }, { text: 'Added a test; done.' }],
      },
      (run) => {
        verify('blocks the first stop: the model reads that no test ran', () => {
          expect(firstRequestWith(run().session, NO_TESTS_REASON)).toBe(1);
        });
        verify('lets the stop through once a test runs and passes', () => {
          const { session } = run();
          expect(session.run.code).toBe(0);
          expect(session.main).toHaveLength(3);
          const outcome = onlyOutcome(run());
          expect(outcome.exit).toBe('success');
          expect(outcome.decision?.reason).toBe('passed_after_block');
        });
      },
    );

    const { nudgeAfterCall, hostLoopDetection } = expected.guard;
    // The call whose refusal asks a person: after the refusals of the ladder fitted to the host (none on a host that
    // stops the fifth identical call itself, so that the hand-off comes first).
    const handOffCall = nudgeAfterCall + 1 + fitToolGuardToHost(DEFAULT_TOOL_GUARD_OPTIONS, HOSTS[host.name]).ladder.refusals;
    scenario(
      host,
      cli,
      'a repeated failing shell call',
      { script: [...Array.from({ length: nudgeAfterCall + 3 }, () => ({ shell: REPEATED_COMMAND })), { text: 'I am stuck.' }, { text: 'Still stuck.' }] },
      (run) => {
        check(`nudges with the result of call ${nudgeAfterCall}: the model reads it before its next call`, known.nudge, () => {
          expect(firstRequestWith(run().session, NUDGE)).toBe(nudgeAfterCall);
        });
        check(`refuses call ${nudgeAfterCall + 1}: the model reads the refusal, the command does not run`, known.refusal, () => {
          const { session, calls } = run();
          expect(firstRequestWith(session, REFUSED)).toBe(nudgeAfterCall + 1);
          expect(calls).toBe(nudgeAfterCall);
        });
        if (nudgeAfterCall === 3) {
          // Where the host tells stopwise the call failed, the refusal quotes the error it keeps failing with.
          check('quotes the error the call keeps failing with in the refusal', known.errorInRefusal ?? known.refusal, () => {
            const refusal = placementsIn(run().session, nudgeAfterCall + 1, REFUSED)[0];
            expect(refusal?.after).toMatch(/Its error: [^\n]*AssertionError/);
          });
        }
        check(
          `asks a person when it refuses call ${handOffCall}, and hands off at the next stop${hostLoopDetection === undefined ? '' : `, before the host's loop detection stops call ${hostLoopDetection.call}`}`,
          known.handOffBeforeHostLoopDetection ?? known.refusal,
          () => {
            const { session } = run();
            expect(firstRequestWith(session, PERSON_ASKED)).toBe(handOffCall);
            const outcome = onlyOutcome(run());
            expect(outcome.exit).toBe('need_help');
            expect(outcome.question).toContain(GUARD_HANDED_OFF);
          },
        );
        if (hostLoopDetection !== undefined) {
          verify(`meets the host's own loop detection at call ${hostLoopDetection.call}`, () => {
            expect(firstRequestWith(run().session, hostLoopDetection.message)).toBe(hostLoopDetection.call);
          });
        } else if (expected.person.line !== undefined) personLineCheck(expected, run, GUARD_HANDED_OFF, known.refusal);
      },
    );

    // A setup that cannot run stopwise lets the agent through: it neither blocks nor reaches the model.
    const brokenSetups: { name: string; prepare: (project: ScratchProject) => void; person?: string }[] = [
      {
        name: 'a broken configuration',
        // A typo in a key, the most likely way to break it: the schema refuses unknown keys.
        prepare: (project) => editConfig(project, ({ maxConsecutiveBlocks, ...config }) => ({ ...config, maxConsecutiveBlock: maxConsecutiveBlocks })),
        person: CONFIG_INVALID,
      },
      {
        name: 'a missing launcher',
        // Settings committed without the launcher, or the launcher deleted: the shell cannot open it.
        prepare: (project) => rmSync(join(project.dir, launcherPath(HOSTS[host.name]))),
      },
    ];
    for (const broken of brokenSetups) {
      scenario(host, cli, broken.name, { script: [{ shell: REPEATED_COMMAND }, { text: 'Done.' }], prepare: broken.prepare }, (run) => {
        verify('never blocks: the call runs, the first stop ends the run, nothing is recorded, the model reads nothing of it', () => {
          const { session, calls } = run();
          expect(session.run.code).toBe(0);
          expect(session.main).toHaveLength(2);
          expect(calls).toBe(1);
          for (const said of [FAILED_TEST_REASON, NUDGE, REFUSED, 'stopwise:', launcherPath(HOSTS[host.name])]) expect(firstRequestWith(session, said), said).toBe(-1);
          expect(run().outcomes).toEqual([]);
        });
        if (broken.person !== undefined) personLineCheck(expected, run, broken.person);
      });
    }

    extra(cli);
  });
}

/** The check that the person reads a stop hook's line for them, or, on a host that shows it nowhere, that it is nowhere in the output. */
function personLineCheck(expected: HostExpectations, run: () => ScenarioRun, line: string, knownProblem?: string): void {
  const shown = expected.person.line;
  if (shown === undefined) {
    check('tells the person nothing: the host shows a stop hook\'s line for the person nowhere', knownProblem, () => {
      expect(run().session.personOutput).not.toContain(line);
    });
  } else {
    check('tells the person', knownProblem, () => {
      expect(run().session.personOutput).toContain(shown(line));
    });
  }
}
