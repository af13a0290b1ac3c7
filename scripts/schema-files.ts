// The shipped JSON Schemas as their definitions generate them (see generate-schemas.ts).
import * as z from 'zod/mini';
import { conditionSchema, stopPolicySchema } from '../src/core/policy/stop-policy-schema.js';
import { stopwiseConfigSchema } from '../src/hosts/stopwise-config.js';

/** Each shipped schema file and its text. */
export function schemaFiles(): { file: string; text: string }[] {
  return [
    {
      file: 'stop-policy.schema.json',
      text: render(stopPolicySchema, {
        $id: 'urn:stopwise:stop-policy:2',
        title: 'stopwise stop policy',
        description:
          'An ordered list of rules: the first rule whose condition holds decides. Generated from the definition parseStopPolicy validates with, which also checks what a schema cannot (unique rule ids, atLeast counts within the number of conditions, bands in order).',
      }),
    },
    {
      file: 'stopwise-config.schema.json',
      text: render(stopwiseConfigSchema, {
        $id: 'urn:stopwise:config:2',
        title: 'stopwise.config.json',
        description:
          'The configuration of the stopwise hooks. Generated from the definition the hook validates with, which also checks what a schema cannot (a task with a decision model, the address and model of an OpenAI-compatible one, no API key in the file).',
      }),
    },
  ];
}

/** The recursive condition is named in $defs, so the files read as the documents do. */
const registry = z.registry<{ id?: string }>();
registry.add(conditionSchema, { id: 'condition' });

function render(schema: z.ZodMiniType, header: Record<string, string>): string {
  const generated = z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any', cycles: 'ref', reused: 'inline', metadata: registry }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return `${JSON.stringify({ $schema, ...header, ...rest }, null, 2)}\n`;
}
