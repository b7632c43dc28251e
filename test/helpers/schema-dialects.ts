import { Ajv, type Options } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

const draft07 = new Ajv({ strict: false, logger: false, validateFormats: false });
const draft2020 = new Ajv2020({ strict: false, logger: false, validateFormats: false });

/** Compile errors of a schema under JSON Schema draft-07 and 2020-12 (empty when both accept it). */
export function dialectProblems(label: string, schema: object): string[] {
  const problems: string[] = [];
  for (const [dialect, ajv] of [
    ["draft-07", draft07],
    ["2020-12", draft2020],
  ] as const) {
    try {
      ajv.compile(schema);
    } catch (error) {
      problems.push(`${label} (${dialect}): ${(error as Error).message}`);
    }
  }
  return problems;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** Compile errors and logged warnings of a schema under strict Ajv (draft-07 and 2020-12, each with ajv-formats). */
export function strictProblems(label: string, schema: object): string[] {
  const problems: string[] = [];
  const logger = {
    log() {},
    warn: (...args: unknown[]) => problems.push(`${label}: warning: ${args.join(" ")}`),
    error: (...args: unknown[]) => problems.push(`${label}: ${args.join(" ")}`),
  };
  const options: Options = { strict: true, allowUnionTypes: true, allErrors: true, logger };
  for (const [dialect, ajv] of [
    ["draft-07", new Ajv(options)],
    ["2020-12", new Ajv2020(options)],
  ] as const) {
    addFormats(ajv);
    try {
      ajv.compile(schema);
    } catch (error) {
      problems.push(`${label} (${dialect}): ${(error as Error).message}`);
    }
  }
  return problems;
}

/** Each distinct input and output schema of a tool list once, labelled by the first tool that has it. */
export function distinctSchemas(
  tools: readonly { name: string; inputSchema: object; outputSchema?: object | undefined }[],
): { label: string; schema: object }[] {
  const distinct = new Map<string, { label: string; schema: object }>();
  for (const tool of tools) {
    for (const [kind, schema] of [
      ["input", tool.inputSchema],
      ["output", tool.outputSchema ?? {}],
    ] as const) {
      const text = JSON.stringify(schema);
      if (!distinct.has(text)) distinct.set(text, { label: `${tool.name} ${kind}`, schema });
    }
  }
  return [...distinct.values()];
}
