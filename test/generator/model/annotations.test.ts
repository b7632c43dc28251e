import { describe, expect, it } from "vitest";
import { annotationsFor, operationAction, operationTraits } from "../../../generator/model/index.js";

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
    // A POST that only computes or reads, one object or a batch of them.
    expect(operationAction({ summary: "Calculate order", operationId: "CalculateOrder" })).toBe("read");
    expect(operationAction({ summary: "Estimate Rates", operationId: "estimate_rates" })).toBe("read");
    expect(operationAction({ summary: "Batch retrieve catalog objects", operationId: "BatchRetrieveCatalogObjects" })).toBe("read");
    expect(operationAction({ summary: "Batch delete catalog objects", operationId: "BatchDeleteCatalogObjects" })).toBe("delete");
    expect(annotationsFor("post", {}, operationAction({ summary: "Calculate order" })).readOnlyHint).toBe(true);
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

describe("hints by consequence", () => {
  /** The hints of an operation as the generator derives them: method, first verb and traits. */
  const hints = (
    method: "get" | "post" | "put" | "patch" | "delete",
    operation: { path: string; summary?: string; operationId?: string },
  ) => annotationsFor(method, {}, operationAction(operation), operationTraits(operation));

  it("never marks read-only an operation that signs in, issues a token or starts a session, whatever its first verb", () => {
    // A real CMS's login: "Retrieve a Temporary Access Token" reads by its first word, and mints a token and a session.
    expect(hints("post", { path: "/auth/login", summary: "Retrieve a Temporary Access Token", operationId: "login" })).toMatchObject({
      readOnlyHint: false,
      idempotentHint: false,
    });
    expect(hints("post", { path: "/auth/refresh", summary: "Get a new access token", operationId: "refresh" }).readOnlyHint).toBe(false);
    expect(hints("post", { path: "/sessions", summary: "Get or start a session" }).readOnlyHint).toBe(false);
    // A search sent with POST still reads.
    expect(hints("post", { path: "/contacts/search", summary: "Search contacts" }).readOnlyHint).toBe(true);
    // Listing tokens with GET is a read.
    expect(hints("get", { path: "/users/{id}/tokens", summary: "List access tokens" }).readOnlyHint).toBe(true);
  });

  it("marks destructive what turns something off, archives, changes in bulk or flips an instance-wide switch; not a sort order", () => {
    expect(
      hints("post", { path: "/projects/{p}/features/{f}/environments/{e}/off", summary: "Disable a feature in an environment" })
        .destructiveHint,
    ).toBe(true);
    expect(
      hints("post", { path: "/projects/{p}/features/{f}/environments/{e}/on", summary: "Enable a feature in an environment" })
        .destructiveHint,
    ).toBe(false);
    expect(hints("post", { path: "/projects/{p}/archive", summary: "Archive features in bulk" }).destructiveHint).toBe(true);
    expect(
      hints("patch", { path: "/items/{collection}", summary: "Update multiple items", operationId: "updateItemsBulk" }).destructiveHint,
    ).toBe(true);
    expect(hints("post", { path: "/maintenance", summary: "Enable maintenance mode" }).destructiveHint).toBe(true);
    expect(hints("patch", { path: "/settings", summary: "Update the instance settings" }).destructiveHint).toBe(true);
    expect(hints("put", { path: "/strategies/sort-order", summary: "Set the strategies' sort order" }).destructiveHint).toBe(false);
    expect(hints("put", { path: "/orders/{id}", summary: "Replace an order" }).destructiveHint).toBe(true);
    expect(hints("post", { path: "/containers/{id}/stop", summary: "Stop a container" }).destructiveHint).toBe(true);
    expect(hints("patch", { path: "/blocks/{id}", summary: "Update a block" }).destructiveHint).toBe(false);
  });
});
