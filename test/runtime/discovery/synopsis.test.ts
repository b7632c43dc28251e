import { describe, expect, it } from "vitest";
import { briefArguments, synopsis } from "../../../runtime/discovery/search-text.js";

describe("a search result's argument synopsis", () => {
  it("lists the required arguments first, then the optional ones", () => {
    const schema = {
      type: "object",
      properties: { page: { type: "integer" }, owner: { type: "string" }, state: { enum: ["open", "closed"] }, repo: { type: "string" } },
      required: ["repo", "owner"],
    };
    expect(synopsis(schema)).toMatch(/^owner: string, repo: string, page\?: integer, state\?: /);
  });

  it("ends a list too long for one line after its last whole argument, saying how many more there are", () => {
    const properties = Object.fromEntries(Array.from({ length: 40 }, (_, n) => [`argument_number_${n}`, { type: "string" }]));
    const text = synopsis({ type: "object", properties, required: ["argument_number_39"] });
    expect(text.length).toBeLessThanOrEqual(300);
    expect(text.startsWith("argument_number_39: string, ")).toBe(true);
    const [, more] = /… \((\d+) more\)$/.exec(text) ?? [];
    const shown = text.split(", ").filter((part) => part.includes(": "));
    expect(shown.every((part) => /^argument_number_\d+\??: string$/.test(part))).toBe(true);
    expect(shown.length + Number(more)).toBe(40);
  });
});

describe("a search result's brief argument line", () => {
  it("names the required arguments (typed where not strings), then the optional ones, each once, a body's opened", () => {
    const schema = {
      type: "object",
      required: ["call_control_id", "body"],
      properties: {
        call_control_id: { type: "string" },
        body: {
          type: "object",
          required: ["call_control_id", "count"],
          properties: { call_control_id: { type: "string" }, count: { type: "integer" }, client_state: { type: "string" } },
        },
      },
    };
    expect(briefArguments(schema)).toBe("needs call_control_id, count: integer; optional client_state");
    expect(briefArguments({ type: "object", properties: {} })).toBe("needs nothing");
  });
});
