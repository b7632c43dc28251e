import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";

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
