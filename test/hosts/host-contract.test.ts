import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readJsonFile } from '../../src/input/read-json-file.js';
import { hostTimeoutSeconds, stopHookDeadlineMs } from '../../src/hosts/hook-deadline.js';
import { hookCommand, launcherPath, launcherScript } from '../../src/hosts/hook-command.js';
import { HOOK_HOSTS, HOSTS, type HookHost, type ToolAnswer } from '../../src/hosts/host.js';
import type { ProjectTestRunner } from '../../src/hosts/project-tests.js';
import { output, runHook, type RunHookOptions } from '../../src/hosts/run-hook.js';
import { checkSettings, describeSettings, installHooks } from '../../src/hosts/settings-file.js';
import { DEFAULT_DECISION_MODEL_TIMEOUT_MS, DEFAULT_TEST_TIMEOUT_MS } from '../../src/hosts/config-file.js';
import { DEFAULT_TOOL_GUARD_OPTIONS, fitToolGuardToHost } from '../../src/hosts/tool-guard.js';
import { bind, contract, fill, payload, payloadFiles, payloadText, readOutput, schemaProblems } from './host-fixtures.js';

// The contract every host of HOOK_HOSTS keeps, checked over the fixtures of its folder in test/fixtures/hosts: a host
// is its description file and its fixtures, and this suite picks it up from HOOK_HOSTS.

const REPO = join(import.meta.dirname, '../..');
const TIMEOUTS = { tests: { timeoutMs: DEFAULT_TEST_TIMEOUT_MS }, decisionModel: { timeoutMs: DEFAULT_DECISION_MODEL_TIMEOUT_MS } };
/** Texts with what JSON must escape and what a shell or a terminal could mangle. */
const TEXTS = {
  reason: '2 tests failed: "auth > login"; auth > refreshes.\n- auth > login: expected 401, got 200 — fix it ✓ `npm test`',
  message: 'stopwise: a person should look (\\ and "quotes" and a tab\there).',
  warning: 'stopwise: the decision model could not be asked (HTTP 503); the tests decided on their own.',
};

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A project folder with a configuration (removed after the test). */
function project(config: Record<string, unknown> = { tests: { command: 'unused' } }): string {
  const dir = mkdtempSync(join(tmpdir(), 'stopwise-contract-'));
  folders.push(dir);
  writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify(config));
  return dir;
}

/** Tests that always fail the same way. */
const RED: ProjectTestRunner = { run: async () => ({ outcome: 'ran', evidence: { passed: false, failed: ['auth > refreshes'], ran: 3 } }) };
/** A stop that must not get as far as the tests. */
const UNTESTED: ProjectTestRunner = {
  run: () => {
    throw new Error('the tests ran');
  },
};

describe.each(HOOK_HOSTS)('the %s host', (name: HookHost) => {
  const host = HOSTS[name];
  const spec = contract(name);
  const stopKinds = ['block', 'handoff'] as const;
  /** Which stop answer a run printed, and its texts; the line for the person of a hand-off is on stderr too, once. */
  const stopAnswer = (run: Awaited<ReturnType<typeof runHook>>) => {
    const { stderr, ...read } = readOutput(run);
    for (const kind of stopKinds) {
      const template = spec.stopAnswers[kind];
      const texts = bind(template, template.stderr === undefined ? read : { ...read, stderr });
      if (texts === undefined) continue;
      expect(stderr).toBe(kind === 'handoff' ? texts.message : template.stderr === undefined ? undefined : stderr);
      return { kind, texts };
    }
    throw new Error(`not a block or a hand-off of ${name}: ${JSON.stringify(readOutput(run))}`);
  };

  it('names in its contract every payload of its folder, a stop among them, and an answer for each tool event', () => {
    expect(Object.keys(spec.payloads).sort()).toEqual(payloadFiles(name));
    expect(Object.values(spec.payloads).some((event) => event.kind === 'stop' && event.eventName === host.events.stop)).toBe(true);
    expect(Object.keys(spec.toolAnswers).sort()).toEqual([...host.events.tools].sort());
    for (const file of Object.values(spec.session)) expect(payloadFiles(name)).toContain(file);
  });

  it('reads each recorded payload into its event', () => {
    for (const file of payloadFiles(name)) {
      const recorded = payload(name, file);
      expect(host.readEvent(recorded), file).toEqual(spec.payloads[file]);
      const schema = spec.inputSchemas?.[file];
      if (schema !== undefined) expect(schemaProblems(name, schema, recorded), file).toEqual([]);
    }
  });

  it('answers nothing, and keeps no state, for an event it does not answer', async () => {
    for (const other of spec.other) {
      expect(host.readEvent(other.payload)).toEqual({ kind: 'other', eventName: other.eventName });
      expect(await runHook(name, JSON.stringify(other.payload), { env: {}, testRunner: UNTESTED })).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    }
  });

  it('refuses unreadable stdin with one line and its non-blocking exit code: never an answer, never a crash', async () => {
    const bad = [
      { stdin: '{"hook_event_name": ', message: 'stdin is not valid JSON' },
      { stdin: '', message: 'stdin is not valid JSON' },
      { stdin: '[{"hook_event_name": "Stop"}]', message: 'stdin must be a JSON object' },
      { stdin: '"Stop"', message: 'stdin must be a JSON object' },
      { stdin: 'null', message: 'stdin must be a JSON object' },
      { stdin: '{}', message: 'stopwise hook reads the JSON the host sends on stdin' },
      { stdin: JSON.stringify({ session_id: 's', cwd: '/work/project' }), message: 'stopwise hook reads the JSON the host sends on stdin' },
      ...spec.unreadable.map((entry) => ({ stdin: JSON.stringify(entry.payload), message: entry.message })),
    ];
    expect(host.unreadableExitCode).not.toBe(2);
    for (const { stdin, message } of bad) {
      const run = await runHook(name, stdin, { env: {}, testRunner: UNTESTED });
      expect(run.exitCode, stdin).toBe(host.unreadableExitCode);
      expect(run.stdout, stdin).toBe('');
      expect(run.stderr, stdin).toContain(message);
      expect(run.stderr, stdin).toMatch(new RegExp(`^stopwise hook ${name}: [^\\n]*; nothing was checked and nothing is blocked\\.\\n$`));
    }
    for (const entry of spec.unreadable) expect(() => host.readEvent(entry.payload)).toThrow(TypeError);
  });

  it('writes each stop answer in the form its schema accepts, with the texts as given', () => {
    const answers = {
      block: { kind: 'block', reason: TEXTS.reason },
      blockWithWarning: { kind: 'block', reason: TEXTS.reason, warning: TEXTS.warning },
      handoff: { kind: 'handoff', message: TEXTS.message },
      allow: { kind: 'allow' },
      allowWithWarning: { kind: 'allow', warning: TEXTS.warning },
    } as const;
    for (const [kind, answer] of Object.entries(answers) as [keyof typeof answers, (typeof answers)[keyof typeof answers]][]) {
      const template = spec.stopAnswers[kind];
      const encoded = host.encodeStop(answer);
      expect(encoded, kind).toEqual(fill(template, TEXTS));
      expect(encoded.exitCode, kind).toBe(0);
      if (encoded.stdout !== undefined) expect(schemaProblems(name, spec.stopSchema, encoded.stdout), kind).toEqual([]);
      // What the process prints reads back to the same texts.
      const texts = bind(template, readOutput(output(encoded, [])));
      expect(texts, kind).toBeDefined();
      for (const [key, text] of Object.entries(texts ?? {})) expect(text).toBe(TEXTS[key as keyof typeof TEXTS]);
    }
    // The schema can fail: it refuses a key the host does not read.
    expect(schemaProblems(name, spec.stopSchema, { stopwiseUnknownKey: true })).not.toEqual([]);
  });

  it('writes the tool guard answers per event: nothing for none, a refusal before the call, the nudge after it', () => {
    for (const event of host.events.tools) {
      const expected = spec.toolAnswers[event];
      if (expected === undefined) throw new Error(`no tool answer for ${event}`);
      expect(host.encodeTool(event, { kind: 'none' }), event).toEqual({ exitCode: 0 });
      const answer: ToolAnswer = expected.phase === 'pre' ? { kind: 'deny', reason: TEXTS.reason } : { kind: 'context', message: TEXTS.message };
      const encoded = host.encodeTool(event, answer);
      expect(encoded, event).toEqual(fill(expected.answer, TEXTS));
      if (expected.schema !== null && encoded.stdout !== undefined) expect(schemaProblems(name, expected.schema, encoded.stdout), event).toEqual([]);
      // An answer with no schema to check it against says why there is none.
      if (expected.schema === null) expect(expected.why, event).toMatch(/\S/);
      if (expected.phase === 'pre') expect(encoded.exitCode, event).toBe(0);
      expect(bind(expected.answer, readOutput(output(encoded, []))), event).toEqual(expected.phase === 'pre' ? { reason: TEXTS.reason } : { message: TEXTS.message });
    }
  });

  it('nudges with the result of the call that completes a finding, refuses the next repeat, and hands the run off at the stop', async () => {
    const dir = project();
    const { pre, post, stop } = spec.session;
    const preEvent = host.readEvent(payload(name, pre));
    const postEvent = host.readEvent(payload(name, post));
    if (preEvent.kind !== 'tool' || postEvent.kind !== 'tool') throw new Error('the session needs a tool event before and after the call');
    const options: RunHookOptions = { env: {}, testRunner: UNTESTED };
    // On a host that stops an identical call itself, the ladder is fitted under it: its refusals before the one that asks a person.
    const refusals = fitToolGuardToHost(DEFAULT_TOOL_GUARD_OPTIONS, host).ladder.refusals;
    const seen: string[] = [];
    const reasons: string[] = [];
    let nudge = '';
    let person: string | undefined;
    while (reasons.length < 3 && seen.length < 20) {
      const before = readOutput(await runHook(name, payloadText(name, pre, dir), options));
      if (bind({ exitCode: 0 }, before) !== undefined) seen.push('pre:none');
      else {
        const answers = spec.toolAnswers[preEvent.eventName];
        const handedOff = answers?.handOff === undefined ? undefined : bind(answers.handOff, before);
        const refused = handedOff ?? bind(answers?.answer, before);
        expect(refused, JSON.stringify(before)).toBeDefined();
        if (handedOff !== undefined) person ??= handedOff.message;
        reasons.push(refused?.reason ?? '');
        seen.push('pre:deny');
        continue;
      }
      // The call runs, and fails the same way again.
      const after = readOutput(await runHook(name, payloadText(name, post, dir), options));
      if (bind({ exitCode: 0 }, after) !== undefined) seen.push('post:none');
      else {
        const told = bind(spec.toolAnswers[postEvent.eventName]?.answer, after);
        expect(told, JSON.stringify(after)).toBeDefined();
        nudge = told?.message ?? '';
        seen.push('post:context');
      }
    }
    expect(seen.join(' ')).toMatch(/^(pre:none post:none ){2,}pre:none post:context pre:deny pre:deny pre:deny$/);
    expect(nudge).toMatch(/^stopwise: .* If you run it again unchanged it will be refused: /);
    expect(reasons[0]).toMatch(/^stopwise refused this call \(`[^`]+` `npm test`\): it repeats\. .*refused once so far\./);
    expect(reasons[refusals]).toMatch(/A person has been asked to look: stop here, end your turn and say what you need\.$/);
    const handOff = /^stopwise: the agent needs a person\. The agent keeps repeating `[^`]+` `npm test`/;
    const tried = (times: string) => new RegExp(`\\nTried: .*stopwise nudged it, then refused the call ${times}\\.\\nEvidence: .*\\nAfter your answer: .*starts counting afresh\\.$`);
    if (host.loopDetection === undefined) {
      expect(person).toBeUndefined();
      const stopped = stopAnswer(await runHook(name, payloadText(name, stop, dir), options));
      expect(stopped.kind).toBe('handoff');
      expect(stopped.texts.message).toMatch(handOff);
      expect(stopped.texts.message).toMatch(tried('3 times'));
    } else {
      // The host may end the run at the next identical call with no stop: the refusal that asks a person hands off at once.
      expect(refusals).toBe(0);
      expect(person).toMatch(handOff);
      expect(person).toMatch(tried('once'));
      // A stop after it lets the run end: the hand-off is not made twice.
      expect(readOutput(await runHook(name, payloadText(name, stop, dir), options))).toEqual({ exitCode: 0 });
    }
    // After the hand-off the guard counts afresh.
    expect(readOutput(await runHook(name, payloadText(name, pre, dir), options))).toEqual({ exitCode: 0 });
  });

  it('turns the retry its block cap would end the run on into a hand-off that names the cap', async () => {
    for (const { env, settings, cap } of spec.blockCaps) {
      expect(host.blockCap(env, settings), JSON.stringify(env)).toEqual(cap ?? undefined);
      const dir = project({ tests: { command: 'unused' }, maxConsecutiveBlocks: 50, policy: { maxSteps: 60, stallRounds: 50 } });
      if (settings !== undefined) {
        mkdirSync(dirname(join(dir, host.settingsFile)), { recursive: true });
        writeFileSync(join(dir, host.settingsFile), JSON.stringify(settings));
      }
      const kinds: string[] = [];
      let last;
      for (let attempt = 0; attempt <= (cap?.blocks ?? 12); attempt++) {
        last = stopAnswer(await runHook(name, payloadText(name, spec.session.stop, dir), { env, testRunner: RED }));
        kinds.push(last.kind);
        if (last.kind !== 'block') break;
      }
      if (cap === null) expect(kinds).toEqual(Array(13).fill('block'));
      else {
        expect(kinds).toEqual([...Array(cap.blocks).fill('block'), 'handoff']);
        expect(last?.texts.message).toContain(`stopwise: ${host.label} ends the run after ${cap.blocks} blocks in a row (${cap.source}), so stopwise hands the run to you instead`);
      }
    }
  });

  it('installs its hooks in a project, then finds them sound, changes nothing the second time, and replaces an older stopwise command', async () => {
    const dir = project();
    const path = join(dir, host.settingsFile);
    const timeoutSeconds = hostTimeoutSeconds(TIMEOUTS);
    const deadlineMs = stopHookDeadlineMs(TIMEOUTS);
    const write = (value: unknown) => {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, JSON.stringify(value));
    };
    const registered = host.events.tools.map((event) => ({ event, ...(host.toolMatcher === undefined ? {} : { matcher: host.toolMatcher }) }));

    expect(checkSettings(host, await readJsonFile(path), deadlineMs)).toEqual({ kind: 'missing' });
    const installed = installHooks(host, undefined, { timeoutSeconds, tools: 'matched' });
    if (!installed.ok) throw new Error(installed.message);
    expect(installed).toMatchObject({ changed: true, replaced: false, added: [host.events.stop, ...host.events.tools] });
    write(installed.value);
    const check = checkSettings(host, await readJsonFile(path), deadlineMs);
    expect(check).toEqual({
      kind: 'read',
      stop: { count: 1, timeout: { kind: 'enough', seconds: timeoutSeconds }, command: { line: expect.stringContaining(hookCommand(host)), current: true, launcherMissing: false } },
      tools: { registered, missing: [] },
    });
    expect(describeSettings(host, check, deadlineMs, timeoutSeconds).map((line) => line.status)).toEqual(['ok', 'ok']);
    expect(installHooks(host, installed.value, { timeoutSeconds, tools: 'matched' })).toEqual({ ...installed, changed: false, added: [] });

    const { older, kept, replaced } = spec.settings;
    const before = checkSettings(host, { kind: 'found', value: older }, deadlineMs);
    expect(before.kind === 'read' && before.stop.command?.current).toBe(false);
    expect(describeSettings(host, before, deadlineMs, timeoutSeconds)).toContainEqual({
      status: 'warning',
      text: `${host.settingsFile}: the stop hook runs an older form of the stopwise command (a missing launcher would block the agent, or npx may download stopwise); \`stopwise init ${name}\` replaces it`,
    });
    const updated = installHooks(host, older, { timeoutSeconds, tools: 'matched' });
    if (!updated.ok) throw new Error(updated.message);
    expect(updated).toMatchObject({ changed: true, replaced: true });
    const text = JSON.stringify(updated.value);
    for (const command of replaced) expect(text).not.toContain(JSON.stringify(command).slice(1, -1));
    expect(text).toContain(kept);
    write(updated.value);
    expect(checkSettings(host, await readJsonFile(path), deadlineMs)).toMatchObject({ kind: 'read', stop: { count: 1, timeout: { kind: 'enough' } }, tools: { missing: [] } });

    const stopOnly = installHooks(host, undefined, { timeoutSeconds, tools: 'none' });
    expect(stopOnly.ok && Object.keys(stopOnly.value.hooks as object)).toEqual([host.events.stop]);
    const every = installHooks(host, undefined, { timeoutSeconds, tools: 'all' });
    if (!every.ok) throw new Error(every.message);
    write(every.value);
    expect(checkSettings(host, await readJsonFile(path), deadlineMs)).toMatchObject({ tools: { registered: host.events.tools.map((event) => ({ event })), missing: [] } });
  });

  it('refuses a settings file of a shape it does not read, and a doctor check finds it invalid', () => {
    const deadlineMs = stopHookDeadlineMs(TIMEOUTS);
    const refused = [
      { value: [1], message: `${host.settingsFile} must hold a JSON object, got an array` },
      { value: { hooks: 'x' }, message: `${host.settingsFile}: "hooks" must be an object, got "x"` },
      { value: { ...(host.settingsRoot({}) as object), hooks: { [host.events.stop]: {} } }, message: `${host.settingsFile}: "hooks.${host.events.stop}" must be an array, got an object` },
      ...spec.settings.refused.map((entry) => ({ value: entry.value, message: `${host.settingsFile}: ${entry.message}` })),
    ];
    for (const { value, message } of refused) {
      expect(installHooks(host, value, { timeoutSeconds: 330, tools: 'matched' })).toEqual({ ok: false, message });
      expect(checkSettings(host, { kind: 'found', value }, deadlineMs)).toMatchObject({ kind: 'invalid' });
    }
  });

  it("runs its hook command from the project's folder: the launcher starts the project's own stopwise", () => {
    const command = hookCommand(host, 'linux');
    expect(command).toBe(spec.settings.hookCommand);
    expect(hookCommand(host, 'win32')).toBe(`npx --offline --no-install stopwise hook ${name}`);
    const dir = project({ tests: { command: "printf 'TAP version 13\\n1..1\\nnot ok 1 - breaks\\n'" } });
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(REPO, join(dir, 'node_modules/stopwise'), 'dir');
    mkdirSync(dirname(join(dir, launcherPath(host))), { recursive: true });
    writeFileSync(join(dir, launcherPath(host)), launcherScript(host));
    const variable = host.command.projectDirVariable;
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: dir, ...(variable === undefined ? {} : { [variable]: dir }) };
    const run = spawnSync('sh', ['-c', command], { cwd: dir, env, input: payloadText(name, spec.session.stop, dir), encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const answer = bind(spec.stopAnswers.block, readOutput({ exitCode: run.status ?? -1, stdout: run.stdout, stderr: run.stderr }));
    expect(answer?.reason, run.stdout).toMatch(/^1 test failed: breaks\. /);
  });
});
