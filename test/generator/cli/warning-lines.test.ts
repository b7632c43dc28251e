import { describe, expect, it } from "vitest";
import { warningLines } from "../../../generator/cli/index.js";

describe("the command line's warning lines", () => {
  it("prints a shared component's problem once, naming the operations that reach it, and any warning once", () => {
    const problem = 'dropped enum value(s) [null] at (#/components/schemas/participant).allOf[1].state: not of type "string"';
    const lines = warningLines([
      `createPullRequest: ${problem}`,
      "createUser: dropped pattern at root",
      `PUT /repositories/{workspace}/{repo_slug}: ${problem}`,
      "createUser: dropped pattern at root",
      `mergePullRequest: ${problem}`,
      `declinePullRequest: ${problem}`,
      "converted from Swagger 2.0",
    ]);
    expect(lines).toEqual([
      `${problem} (in 4 operations: createPullRequest, PUT /repositories/{workspace}/{repo_slug}, mergePullRequest and 1 more)`,
      "createUser: dropped pattern at root",
      "converted from Swagger 2.0",
    ]);
    expect(warningLines([`getA: ${problem}`])).toEqual([`getA: ${problem}`]);
  });
});
