import { describe, expect, it } from "vitest";
import { describeOperation, NO_CREDENTIAL } from "../../../runtime/tools/describe-operation.js";
import { registryTool } from "../../helpers/registry-tool.js";

/** The security describe_operation shows for a tool with these requirements. */
function shownSecurity(security: Record<string, string[]>[]): unknown {
  const [content] = describeOperation(registryTool("reconcile", "POST", "/reconcile", "Reconcile", { security }), undefined).content;
  return JSON.parse(content?.type === "text" ? content.text : "{}").security;
}

describe("the credentials describe_operation says an operation takes", () => {
  it("says an empty requirement needs no credential (public, or a credential that is optional), and shows the others as written", () => {
    expect(shownSecurity([{}])).toEqual([NO_CREDENTIAL]);
    expect(shownSecurity([{ api_key: [] }, {}])).toEqual([{ api_key: [] }, NO_CREDENTIAL]);
    expect(shownSecurity([{ oauth: ["read"] }])).toEqual([{ oauth: ["read"] }]);
  });
});
