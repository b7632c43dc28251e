import { StructureKind, VariableDeclarationKind } from "ts-morph";
import { describe, expect, it } from "vitest";
import { CONST, Kind } from "../../templates/structure-kinds.js";

describe("ts-morph enum values used without loading ts-morph", () => {
  it("match ts-morph's enums", () => {
    for (const [name, value] of Object.entries(Kind)) expect(value, name).toBe(StructureKind[name as keyof typeof StructureKind]);
    expect(CONST).toBe(VariableDeclarationKind.Const);
  });
});
