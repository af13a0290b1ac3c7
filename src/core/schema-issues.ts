import type * as z from 'zod/mini';
import { describeValue } from './describe-value.js';
import { nearestName } from './nearest-name.js';

/** One problem of a document: where (`rules[1].when.tests`, `tests.command`) and what is wrong. */
export interface SchemaProblem {
  readonly path: string;
  readonly message: string;
}

/** The part of a zod issue read here (zod's issues carry these fields by code). */
interface Issue {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly input?: unknown;
  readonly expected?: string;
  readonly origin?: string;
  readonly minimum?: number | bigint;
  readonly maximum?: number | bigint;
  readonly inclusive?: boolean;
  readonly values?: readonly unknown[];
  readonly keys?: readonly string[];
  readonly format?: string;
  readonly errors?: readonly (readonly Issue[])[];
}

/** What a schema node is made of, as far as messages need it. */
interface Node {
  readonly _zod: {
    /** A lazy schema's inner schema, built once on first read. */
    readonly innerType?: Node;
    readonly def: {
      readonly type: string;
      readonly shape?: Readonly<Record<string, Node>>;
      readonly options?: readonly Node[];
      readonly element?: Node;
      readonly innerType?: Node;
      readonly in?: Node;
      readonly valueType?: Node;
      readonly items?: readonly Node[];
      readonly values?: readonly unknown[];
    };
  };
}

/**
 * Every problem zod found in `value`, each one line with its path, the value
 * found and, for an unknown key or name, the nearest known one. A union is
 * explained through the branch the value was meant for: a condition by its
 * one key (`{ "tests": ... }`), an outcome by its `kind`, a comparison by its
 * comparator; so a mistake deep inside a rule reads as that mistake, not as
 * "matches none of 18 kinds".
 */
export function schemaProblems(schema: z.ZodMiniType, issues: readonly z.core.$ZodIssue[], value: unknown): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  for (const issue of issues as unknown as readonly Issue[]) explain(schema as unknown as Node, issue, [], value, problems);
  // One line per problem: a union that fails the same way in two branches reports it once.
  const seen = new Set<string>();
  // An empty text is also a blank one: it is said once, as empty.
  const empty = new Set(problems.filter((problem) => problem.message.startsWith('must not be empty')).map((problem) => problem.path));
  return problems.filter((problem) => {
    const key = `${problem.path}\0${problem.message}`;
    if (seen.has(key) || (empty.has(problem.path) && problem.message.startsWith('must be a non-blank text'))) return false;
    seen.add(key);
    return true;
  });
}

/** The problems as lines, `path: message`. */
export function formatSchemaProblems(problems: readonly SchemaProblem[]): string {
  return problems.map((problem) => (problem.path === '' ? problem.message : `${problem.path}: ${problem.message}`)).join('\n');
}

/** `rules[1].when.all[0]` from `['rules', 1, 'when', 'all', 0]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) text += typeof key === 'number' ? `[${key}]` : text === '' ? String(key) : `.${String(key)}`;
  return text;
}

function explain(root: Node, issue: Issue, prefix: readonly PropertyKey[], value: unknown, problems: SchemaProblem[]): void {
  const path = [...prefix, ...issue.path];
  const at = formatPath(path);
  const input = 'input' in issue ? issue.input : valueAt(value, path);
  const got = input === undefined ? '' : `, got ${describeValue(input)}`;
  switch (issue.code) {
    case 'invalid_union':
      explainUnion(root, issue, path, value, problems);
      return;
    case 'invalid_type':
      if (input === undefined && issue.expected !== 'undefined') {
        problems.push({ path: at, message: `required (${expectedText(issue.expected)})` });
        return;
      }
      problems.push({ path: at, message: `expected ${expectedText(issue.expected)}${got}` });
      return;
    case 'too_small':
      problems.push({ path: at, message: tooSmall(issue, got) });
      return;
    case 'too_big':
      problems.push({ path: at, message: `must be ${issue.inclusive === false ? 'below' : 'at most'} ${String(issue.maximum)}${issue.origin === 'array' || issue.origin === 'string' ? ' long' : ''}${got}` });
      return;
    case 'invalid_value': {
      const values = issue.values ?? [];
      const near = typeof input === 'string' ? nearestName(input, values.filter((v): v is string => typeof v === 'string')) : undefined;
      const expected = values.length === 1 ? `must be ${JSON.stringify(values[0])}` : `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;
      if (input === undefined && !values.includes(undefined)) {
        problems.push({ path: at, message: `required (${values.length === 1 ? JSON.stringify(values[0]) : `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`})` });
        return;
      }
      problems.push({ path: at, message: `${expected}${got}${near === undefined ? '' : ` (did you mean "${near}"?)`}` });
      return;
    }
    case 'invalid_format':
      problems.push({ path: at, message: `must be ${issue.format === 'url' ? 'an http(s) URL' : issue.format === 'regex' ? 'a non-blank text' : `a valid ${issue.format ?? 'value'}`}${got}` });
      return;
    case 'unrecognized_keys': {
      const known = knownKeys(root, path, value);
      for (const key of issue.keys ?? []) {
        const near = known === undefined ? undefined : nearestName(key, known);
        const where = formatPath([...path, key]);
        problems.push({
          path: where,
          message: near === undefined ? `unknown field${known === undefined ? '' : `; expected one of ${known.join(', ')}`}` : `unknown field (did you mean "${near}"?)`,
        });
      }
      return;
    }
    default:
      problems.push({ path: at, message: issue.message });
  }
}

function tooSmall(issue: Issue, got: string): string {
  if (issue.origin === 'string') return `must not be empty${got}`;
  if (issue.origin === 'array') return `must hold at least ${String(issue.minimum)} item${issue.minimum === 1 ? '' : 's'}${got}`;
  return `must be ${issue.inclusive === false ? 'above' : 'at least'} ${String(issue.minimum)}${got}`;
}

function expectedText(expected: string | undefined): string {
  switch (expected) {
    case 'int':
      return 'an integer';
    case 'object':
      return 'an object';
    case 'array':
      return 'an array';
    case 'number':
      return 'a number';
    case 'string':
      return 'a string';
    case 'boolean':
      return 'a boolean';
    case 'tuple':
      return 'a pair [low, high]';
    default:
      return expected ?? 'a value';
  }
}

/**
 * A union that matched no branch: explained through the branch the value was
 * meant for. A union of objects tagged by one key (the conditions): the value's
 * one key picks the branch, an unknown key gets the nearest kind. Otherwise the
 * branch whose own shape fits (no unknown key, no missing field, no literal
 * mismatch at its top) is explained; when none fits, the value is said not to
 * be one of the forms.
 */
function explainUnion(root: Node, issue: Issue, path: readonly PropertyKey[], value: unknown, problems: SchemaProblem[]): void {
  const at = formatPath(path);
  const input = valueAt(value, path);
  const branches = issue.errors ?? [];
  const node = nodeAt(root, path, value);
  const options = node?._zod.def.options;
  const tags = options === undefined ? undefined : keyTags(options);
  if (tags !== undefined) {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      problems.push({ path: at, message: `must be a condition: an object with one key naming its kind (${tags.join(', ')}), got ${describeValue(input)}` });
      return;
    }
    const keys = Object.keys(input);
    const known = keys.filter((key) => tags.includes(key));
    if (keys.length === 1 && known.length === 1) {
      const branch = branches[tags.indexOf(known[0] as string)] ?? [];
      for (const inner of branch) explain(root, inner, path, value, problems);
      return;
    }
    if (keys.length === 1) {
      const near = nearestName(keys[0] as string, tags);
      problems.push({
        path: formatPath([...path, keys[0] as string]),
        message: `unknown condition${near === undefined ? `; a condition is one of ${tags.join(', ')}` : ` (did you mean "${near}"?)`}`,
      });
      return;
    }
    problems.push({
      path: at,
      message: `a condition has exactly one key naming its kind (one of ${tags.join(', ')}), got ${keys.length === 0 ? 'none' : keys.map((key) => `"${key}"`).join(', ')}`,
    });
    return;
  }
  const scored = branches.map((branch, index) => ({ index, branch, misfit: branch.filter((inner) => misfits(inner)).length }));
  const fitting = scored.filter((entry) => entry.misfit === 0);
  if (fitting.length >= 1) {
    const best = fitting.reduce((a, b) => (b.branch.length < a.branch.length ? b : a));
    for (const inner of best.branch) explain(root, inner, path, value, problems);
    return;
  }
  const literal = literalField(options);
  if (literal !== undefined && typeof input === 'object' && input !== null && !Array.isArray(input)) {
    const given = (input as Record<string, unknown>)[literal.key];
    // A tag that names a branch picks it: `{ kind: 'retry' }` without its reason is a retry missing a field.
    const tagged = typeof given === 'string' ? literal.values.indexOf(given) : -1;
    if (tagged >= 0 && (branches[tagged]?.length ?? 0) > 0) {
      for (const inner of branches[tagged] ?? []) explain(root, inner, path, value, problems);
      return;
    }
    const near = typeof given === 'string' ? nearestName(given, literal.values) : undefined;
    problems.push({
      path: formatPath([...path, literal.key]),
      message: `must be one of ${literal.values.map((v) => JSON.stringify(v)).join(', ')}, got ${describeValue(given)}${near === undefined ? '' : ` (did you mean "${near}"?)`}`,
    });
    return;
  }
  const comparators = comparatorKeys(options);
  if (comparators !== undefined && typeof input === 'object' && input !== null && !Array.isArray(input)) {
    const present = comparators.filter((key) => Object.hasOwn(input, key));
    if (present.length !== 1) {
      problems.push({ path: at, message: `needs exactly one of ${comparators.join(', ')}, got ${present.length === 0 ? 'none' : present.join(', ')}` });
      return;
    }
  }
  const fewest = scored.reduce((a, b) => (b.misfit < a.misfit ? b : a), scored[0] ?? { index: 0, branch: [], misfit: 0 });
  if (fewest.branch.length > 0 && fewest.misfit <= 1) {
    for (const inner of fewest.branch) explain(root, inner, path, value, problems);
    return;
  }
  problems.push({ path: at, message: `does not have any of the accepted forms, got ${describeValue(input)}` });
}

/** True for an issue that says the value is not of this branch's form at all (rather than wrong inside it). */
function misfits(issue: Issue): boolean {
  if (issue.code === 'unrecognized_keys' && issue.path.length === 0) return true;
  if (issue.code === 'invalid_type' && issue.path.length === 0) return true;
  if (issue.code === 'invalid_type' && issue.path.length === 1 && !('input' in issue && issue.input !== undefined)) return true;
  if (issue.code === 'invalid_value' && issue.path.length <= 1 && (issue.values ?? []).length === 1) return true;
  return false;
}

/** The tags of a union of objects each with one required key (the condition kinds), else `undefined`. */
function keyTags(options: readonly Node[]): string[] | undefined {
  const tags: string[] = [];
  for (const option of options) {
    const shape = unwrap(option)._zod.def.shape;
    if (shape === undefined) return undefined;
    const keys = Object.keys(shape);
    if (keys.length !== 1) return undefined;
    tags.push(keys[0] as string);
  }
  return tags.length > 2 ? tags : undefined;
}

/** A field every branch has as a literal (`kind`, `detector`), with the values of the branches. */
function literalField(options: readonly Node[] | undefined): { key: string; values: string[] } | undefined {
  if (options === undefined) return undefined;
  const shapes = options.map((option) => unwrap(option)._zod.def.shape);
  const first = shapes[0];
  if (first === undefined) return undefined;
  for (const key of Object.keys(first)) {
    const values: string[] = [];
    for (const shape of shapes) {
      const field = shape?.[key];
      const literal = field === undefined ? undefined : unwrap(field)._zod.def;
      if (literal?.type !== 'literal' || typeof literal.values?.[0] !== 'string') break;
      values.push(literal.values[0] as string);
    }
    if (values.length === shapes.length) return { key, values };
  }
  return undefined;
}

/** The keys that tell the branches apart when each branch has one key of its own beside shared ones (`gte`, `lt`, `within`). */
function comparatorKeys(options: readonly Node[] | undefined): string[] | undefined {
  if (options === undefined) return undefined;
  const shapes = options.map((option) => unwrap(option)._zod.def.shape);
  if (shapes.some((shape) => shape === undefined)) return undefined;
  const count = new Map<string, number>();
  for (const shape of shapes) for (const key of Object.keys(shape as object)) count.set(key, (count.get(key) ?? 0) + 1);
  const own = [...count].filter(([, n]) => n === 1).map(([key]) => key);
  return own.length === shapes.length ? own : undefined;
}

function unwrap(node: Node): Node {
  let current = node;
  for (let depth = 0; depth < 20; depth++) {
    const def = current._zod.def;
    if (def.type === 'lazy' && current._zod.innerType !== undefined) current = current._zod.innerType;
    else if ((def.type === 'optional' || def.type === 'nullable' || def.type === 'readonly' || def.type === 'default' || def.type === 'prefault' || def.type === 'nonoptional') && def.innerType !== undefined)
      current = def.innerType;
    else if (def.type === 'pipe' && def.in !== undefined) current = def.in;
    else return current;
  }
  return current;
}

/** The schema node at `path` for `value` (a union follows the branch whose shape has the next key). */
function nodeAt(root: Node, path: readonly PropertyKey[], value: unknown): Node | undefined {
  let node: Node | undefined = unwrap(root);
  let current: unknown = value;
  for (const key of path) {
    if (node === undefined) return undefined;
    node = child(node, key, current);
    current = typeof current === 'object' && current !== null ? (current as Record<PropertyKey, unknown>)[key as string] : undefined;
    node = node === undefined ? undefined : unwrap(node);
  }
  return node;
}

function child(node: Node, key: PropertyKey, value: unknown): Node | undefined {
  const def = node._zod.def;
  if (def.type === 'array') return def.element;
  if (def.type === 'tuple') return typeof key === 'number' ? def.items?.[key] : undefined;
  if (def.type === 'record') return def.valueType;
  if (def.type === 'object') return def.shape?.[String(key)];
  if (def.type === 'union') {
    for (const option of def.options ?? []) {
      const shape = unwrap(option)._zod.def.shape;
      if (shape !== undefined && Object.hasOwn(shape, String(key))) {
        const literal = literalField(def.options);
        if (literal === undefined || typeof value !== 'object' || value === null) return shape[String(key)];
        const tag = (value as Record<string, unknown>)[literal.key];
        const own = unwrap(option)._zod.def.shape?.[literal.key];
        if (own !== undefined && unwrap(own)._zod.def.values?.[0] === tag) return shape[String(key)];
      }
    }
    for (const option of def.options ?? []) {
      const found = child(unwrap(option), key, value);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The keys the schema knows for the object at `path`, `$schema` left out; `undefined` when it is not an object. */
function knownKeys(root: Node, path: readonly PropertyKey[], value: unknown): string[] | undefined {
  const node = nodeAt(root, path, value);
  const shape = node === undefined ? undefined : (node._zod.def.shape ?? objectOption(node, valueAt(value, path)));
  if (shape === undefined) return undefined;
  return Object.keys(shape).filter((key) => !key.startsWith('$'));
}

/**
 * The shape of the object branch of a union that `value` is meant for: the
 * one its tag names (`detector: 'step_history'`), or the only object branch
 * (a pattern's options, or `false` to turn it off).
 */
function objectOption(node: Node, value: unknown): Readonly<Record<string, Node>> | undefined {
  const options = node._zod.def.type === 'union' ? node._zod.def.options : undefined;
  if (options === undefined) return undefined;
  const shapes = options.map((option) => unwrap(option)._zod.def.shape).filter((shape) => shape !== undefined);
  if (shapes.length === 1) return shapes[0];
  const literal = shapes.length === options.length ? literalField(options) : undefined;
  if (literal === undefined || typeof value !== 'object' || value === null) return undefined;
  const index = literal.values.indexOf((value as Record<string, unknown>)[literal.key] as string);
  return index < 0 ? undefined : shapes[index];
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key as string];
  }
  return current;
}
