import { describe, expect, it } from 'vitest';
import { doctorReport, formatDoctorReport, worstStatus, type DoctorReport } from '../../src/cli/doctor-report.js';

const ok = { status: 'ok', text: 'fine' } as const;
const warning = { status: 'warning', text: 'careful' } as const;
const problem = { status: 'problem', text: 'broken' } as const;
const skipped = { status: 'skipped', text: 'not run' } as const;

function checks(overrides: Partial<DoctorReport['checks']> = {}): DoctorReport['checks'] {
  return {
    config: { status: 'ok', lines: [{ status: 'ok', text: 'stopwise.config.json is valid' }] },
    hosts: { status: 'ok', lines: [{ status: 'ok', text: '.claude/settings.json: registered' }], hosts: [] },
    tests: { status: 'ok', lines: [{ status: 'ok', text: 'tests: 2 ran' }] },
    decisionModel: { status: 'ok', lines: [{ status: 'ok', text: 'decision model: none' }] },
    samples: {
      status: 'ok',
      lines: [{ status: 'ok', text: 'samples' }],
      hosts: [
        {
          host: 'cursor',
          red: { kind: 'block', stdout: '{"followup_message":"fix"}' },
          green: { kind: 'handoff', stdout: '{}', systemMessage: 'stopwise: look' },
          noTests: { kind: 'allow', stdout: '' },
        },
      ],
    },
    ...overrides,
  };
}

describe('worstStatus', () => {
  it('orders skipped < ok < warning < problem', () => {
    expect(worstStatus([])).toBe('skipped');
    expect(worstStatus([skipped, ok])).toBe('ok');
    expect(worstStatus([ok, warning, ok])).toBe('warning');
    expect(worstStatus([warning, problem, ok])).toBe('problem');
  });
});

describe('doctorReport', () => {
  it('is ok with no problem line, warnings aside, and lists problems and warnings in order', () => {
    expect(doctorReport(checks())).toMatchObject({ ok: true, problems: [], warnings: [] });
    const report = doctorReport(checks({ tests: { status: 'problem', lines: [problem, warning] }, decisionModel: { status: 'problem', lines: [{ status: 'problem', text: 'down' }] } }));
    expect(report).toMatchObject({ ok: false, problems: ['broken', 'down'], warnings: ['careful'] });
    expect(doctorReport(checks({ tests: { status: 'warning', lines: [warning] } })).ok).toBe(true);
  });
});

describe('formatDoctorReport', () => {
  it('prints each section with a status per line, the sample answers, then the verdict', () => {
    const text = formatDoctorReport(doctorReport(checks({ tests: { status: 'warning', lines: [ok, warning] } })));
    expect(text).toBe(
      [
        'configuration',
        '  ok       stopwise.config.json is valid',
        'host settings',
        '  ok       .claude/settings.json: registered',
        'tests',
        '  ok       fine',
        '  warning  careful',
        'decision model',
        '  ok       decision model: none',
        'sample answers (cursor, the first stop of a session)',
        '  ok       samples',
        '  red      block    {"followup_message":"fix"}',
        '  green    handoff  {}',
        '                    stderr: stopwise: look',
        '  no tests allow    (no output: the stop goes ahead)',
        '',
        'the setup is sound (1 warning)',
        '',
      ].join('\n'),
    );
  });

  it('ends with one line per problem', () => {
    const text = formatDoctorReport(doctorReport(checks({ config: { status: 'problem', lines: [problem, { status: 'problem', text: 'also broken' }] } })));
    expect(text.endsWith('2 problems:\n  - broken\n  - also broken\n')).toBe(true);
  });
});
