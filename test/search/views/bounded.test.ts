import { describe, expect, it } from "vitest";
import { boundValue } from "../../../search/views/index.js";

describe("bounded answers", () => {
  it("leaves small values alone", () => {
    expect(boundValue({ a: [1, 2], b: "x" }, 1000)).toEqual({ value: { a: [1, 2], b: "x" }, truncated: false });
  });

  it("cuts long strings and arrays with visible markers first", () => {
    const { value, truncated } = boundValue({ text: "x".repeat(5000), list: Array.from({ length: 200 }, (_, i) => i) }, 2000);
    expect(truncated).toBe(true);
    expect(JSON.stringify(value).length).toBeLessThanOrEqual(2000);
    expect((value as { text: string }).text).toMatch(/… \[truncated: 4600 more characters\]$/);
    expect((value as { list: unknown[] }).list.at(-1)).toBe("[truncated: 150 more items]");
  });

  it("then collapses deep nesting into markers naming what was cut, and never exceeds the budget", () => {
    let deep: unknown = { leaf: "v" };
    for (let i = 0; i < 40; i++) deep = { [`level${i}`]: deep, sibling: { a: 1, b: 2, c: 3 } };
    const { value, truncated } = boundValue(deep as never, 600);
    expect(truncated).toBe(true);
    const text = JSON.stringify(value);
    expect(text.length).toBeLessThanOrEqual(600);
    expect(text).toMatch(/\[truncated: object with \d+ keys: /);
  });
});
