import { describe, expect, it } from "vitest";
import { annotationsFor, operationAction } from "../../../generator/model/index.js";

describe("tool annotations by meaning as well as method", () => {
  it("reads the action from the summary's first word, else the operationId's first verb", () => {
    expect(operationAction({ summary: "Terminates a call", operationId: "UpdateCall" })).toBe("cancel");
    expect(operationAction({ summary: "Update call", operationId: "UpdateCall" })).toBe("update");
    expect(operationAction({ operationId: "MemoService_DeleteMemo" })).toBe("delete");
    expect(operationAction({ operationId: "PostPaymentIntentsIntentCancel" })).toBe("cancel");
    expect(operationAction({ operationId: "chat.postMessage" })).toBeUndefined();
    expect(operationAction({ operationId: "sendEmail" })).toBe("send");
    expect(operationAction({ summary: "constructor", operationId: "toString" })).toBeUndefined();
    expect(operationAction({ operationId: "getSendStatus" })).toBeUndefined();
    expect(operationAction({ operationId: "listChanges" })).toBeUndefined();
    expect(operationAction({ summary: "Search contacts", operationId: "POST_marketing-contacts-search" })).toBe("read");
    expect(operationAction({ summary: "Get or create a session", operationId: "PostSessions" })).toBeUndefined();
  });

  it("a create sent with PUT is not destructive; a delete or cancel sent with POST is; a replace is; a send reaches the open world", () => {
    expect(annotationsFor("put", {}, "create")).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    expect(annotationsFor("post", {}, "delete")).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(annotationsFor("post", {}, "cancel")).toMatchObject({ destructiveHint: true, idempotentHint: false });
    expect(annotationsFor("patch", {}, "replace")).toMatchObject({ destructiveHint: true });
    expect(annotationsFor("patch", {}, "update")).toMatchObject({ destructiveHint: false });
    expect(annotationsFor("post", {}, "send")).toMatchObject({ destructiveHint: false, idempotentHint: false, openWorldHint: true });
    // A POST that only reads by its words (a search, a validation) is read-only; a PUT that says it reads is not.
    expect(annotationsFor("post", {}, "read")).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    expect(annotationsFor("put", {}, "read")).toMatchObject({ readOnlyHint: false });
    // A GET that deletes (some RPC-style APIs) is neither read-only nor harmless.
    expect(annotationsFor("get", {}, "delete")).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  });

  it("keeps the method's hints where the words name no action, and the config's corrections win", () => {
    expect(annotationsFor("get")).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    expect(annotationsFor("delete")).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(annotationsFor("put")).toMatchObject({ destructiveHint: true });
    expect(annotationsFor("post")).toMatchObject({ destructiveHint: false, idempotentHint: false });
    expect(annotationsFor("post", { destructiveHint: false }, "delete")).toMatchObject({ destructiveHint: false });
  });
});
