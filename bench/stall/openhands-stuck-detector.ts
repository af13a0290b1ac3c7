// A port of OpenHands' StuckDetector (openhands/controller/stuck.py, MIT) to a
// minimal event model, kept as a measurement anchor. Five patterns with the V1
// thresholds: 4 identical action/observation pairs, 3 identical actions with 3
// error observations (and the IPython syntax-error variants), 3 identical agent
// messages with no observation between them, the A/B pattern over the last 6
// actions and observations, and 10 context-window condensations in a row.

/** One OpenHands event: an action or an observation with its fields. */
export interface OpenHandsEvent {
  readonly kind: 'action' | 'observation';
  readonly type: string;
  readonly source: string | null;
  readonly fields: Readonly<Record<string, unknown>>;
}

const SYNTAX_ERROR_MESSAGES = [
  'SyntaxError: unterminated string literal (detected at line',
  'SyntaxError: invalid syntax. Perhaps you forgot a comma?',
  'SyntaxError: incomplete input',
];

const isUserMessage = (e: OpenHandsEvent): boolean => e.kind === 'action' && e.type === 'MessageAction' && e.source === 'user';
const isAgentMessage = (e: OpenHandsEvent): boolean => e.kind === 'action' && e.type === 'MessageAction' && e.source === 'agent';
const isNull = (e: OpenHandsEvent): boolean => e.type === 'NullAction' || e.type === 'NullObservation';
const content = (e: OpenHandsEvent): string => String(e.fields['content'] ?? '');
const code = (e: OpenHandsEvent): string => String(e.fields['code'] ?? '');

// Event equality as in Python dataclasses (ids, timestamps and causes excluded), with _eq_no_pid's exceptions.
function same(a: OpenHandsEvent, b: OpenHandsEvent): boolean {
  if (a.type === 'IPythonRunCellAction' && b.type === 'IPythonRunCellAction') {
    if (code(a).includes('edit_file_by_replace(') && code(b).includes('edit_file_by_replace(')) {
      const la = code(a).split('\n');
      const lb = code(b).split('\n');
      return la.length > 2 && la.slice(0, 3).join('\n') === lb.slice(0, 3).join('\n');
    }
  }
  if (a.type === 'CmdOutputObservation' && b.type === 'CmdOutputObservation') {
    return a.fields['command'] === b.fields['command'] && (a.fields['exit_code'] ?? null) === (b.fields['exit_code'] ?? null);
  }
  return a.kind === b.kind && a.type === b.type && a.source === b.source && JSON.stringify(a.fields) === JSON.stringify(b.fields);
}

/** `StuckDetector.is_stuck(headless_mode)` over a whole history. */
export function openHandsIsStuck(history: readonly OpenHandsEvent[], headlessMode: boolean): boolean {
  let toCheck = history;
  if (!headlessMode) {
    let last = -1;
    for (let i = history.length - 1; i >= 0; i--) {
      if (isUserMessage(history[i] as OpenHandsEvent)) {
        last = i;
        break;
      }
    }
    toCheck = history.slice(last + 1);
  }
  const filtered = toCheck.filter((e) => !isUserMessage(e) && !isNull(e));
  if (filtered.length < 3) return false;

  const lastActions: OpenHandsEvent[] = [];
  const lastObservations: OpenHandsEvent[] = [];
  for (let i = filtered.length - 1; i >= 0; i--) {
    const e = filtered[i] as OpenHandsEvent;
    if (e.kind === 'action' && lastActions.length < 4) lastActions.push(e);
    else if (e.kind === 'observation' && lastObservations.length < 4) lastObservations.push(e);
    if (lastActions.length === 4 && lastObservations.length === 4) break;
  }
  // 1: the same action and the same observation 4 times.
  if (lastActions.length === 4 && lastObservations.length === 4) {
    const a0 = lastActions[0] as OpenHandsEvent;
    const o0 = lastObservations[0] as OpenHandsEvent;
    if (lastActions.every((a) => same(a0, a)) && lastObservations.every((o) => same(o0, o))) return true;
  }
  // 2: the same action 3 times, each ending in an error.
  if (lastActions.length >= 3 && lastObservations.length >= 3) {
    const a0 = lastActions[0] as OpenHandsEvent;
    if (lastActions.slice(0, 3).every((a) => same(a0, a))) {
      const obs = lastObservations.slice(0, 3);
      if (obs.every((o) => o.type === 'ErrorObservation')) return true;
      if (obs.every((o) => o.type === 'IPythonRunCellObservation')) {
        for (const message of SYNTAX_ERROR_MESSAGES) {
          if (message.startsWith('SyntaxError: unterminated string literal (detected at line')) {
            if (consistentLineError(obs, message)) return true;
          } else if (consistentInvalidSyntax(obs, message)) return true;
        }
      }
    }
  }
  // 3: monologue.
  const messages = filtered.map((e, i) => [i, e] as const).filter(([, e]) => isAgentMessage(e));
  if (messages.length >= 3) {
    const last3 = messages.slice(-3);
    const first = last3[0] as readonly [number, OpenHandsEvent];
    if (last3.every(([, e]) => same(first[1], e))) {
      const end = (last3[2] as readonly [number, OpenHandsEvent])[0];
      if (!filtered.slice(first[0] + 1, end).some((e) => e.kind === 'observation')) return true;
    }
  }
  // 4: A/B pattern over the last 6 actions and 6 observations.
  if (filtered.length >= 6) {
    const acts: OpenHandsEvent[] = [];
    const obs: OpenHandsEvent[] = [];
    for (let i = filtered.length - 1; i >= 0; i--) {
      const e = filtered[i] as OpenHandsEvent;
      if (e.kind === 'action' && acts.length < 6) acts.push(e);
      else if (e.kind === 'observation' && obs.length < 6) obs.push(e);
      if (acts.length === 6 && obs.length === 6) break;
    }
    if (acts.length === 6 && obs.length === 6) {
      const alt = (xs: OpenHandsEvent[]): boolean =>
        same(xs[0] as OpenHandsEvent, xs[2] as OpenHandsEvent) &&
        same(xs[0] as OpenHandsEvent, xs[4] as OpenHandsEvent) &&
        same(xs[1] as OpenHandsEvent, xs[3] as OpenHandsEvent) &&
        same(xs[1] as OpenHandsEvent, xs[5] as OpenHandsEvent);
      if (alt(acts) && alt(obs)) return true;
    }
  }
  // 5: 10 context-window condensations with nothing between two of them.
  if (filtered.length >= 10) {
    const condensations = filtered.map((e, i) => [i, e] as const).filter(([, e]) => e.type === 'AgentCondensationObservation');
    if (condensations.length >= 10) {
      const last10 = condensations.slice(-10);
      for (let i = 0; i < last10.length - 1; i++) {
        const start = (last10[i] as readonly [number, OpenHandsEvent])[0];
        const end = (last10[i + 1] as readonly [number, OpenHandsEvent])[0];
        if (!filtered.slice(start + 1, end).some((e) => e.type !== 'AgentCondensationObservation')) return true;
      }
    }
  }
  return false;
}

function consistentInvalidSyntax(observations: readonly OpenHandsEvent[], message: string): boolean {
  const firstLines: string[] = [];
  const valid: OpenHandsEvent[] = [];
  for (const o of observations) {
    const lines = content(o).trim().split('\n');
    if (lines.length < 6) return false;
    const line1 = (lines[0] as string).trim();
    if (!line1.startsWith('Cell In[1], line')) return false;
    firstLines.push(line1);
    if (
      (lines.at(-1) ?? '').startsWith('[Jupyter Python interpreter:') &&
      (lines.at(-2) ?? '').startsWith('[Jupyter current working directory:') &&
      (lines.at(-3) ?? '').includes(message)
    ) {
      valid.push(o);
    }
  }
  return (
    new Set(firstLines).size === 1 &&
    valid.length === 3 &&
    new Set(valid.map((o) => content(o).trim().split('\n').slice(0, -2).at(-1))).size === 1
  );
}

function consistentLineError(observations: readonly OpenHandsEvent[], message: string): boolean {
  const errorLines: string[] = [];
  for (const o of observations) {
    const lines = content(o).trim().split('\n');
    if (lines.length < 3) return false;
    const last = lines.slice(-3);
    if (!((last[1] ?? '').startsWith('[Jupyter current working directory:') && (last[2] ?? '').startsWith('[Jupyter Python interpreter:'))) {
      return false;
    }
    if ((last[0] ?? '').includes(message)) errorLines.push(last[0] as string);
  }
  return errorLines.length === 3 && new Set(errorLines).size === 1;
}
