import { describe, expect, it } from "vitest";
import { toolNameFromOperationId, toolNameFromRoute, uniqueNames } from "../../../generator/model/index.js";

describe("tool names", () => {
  it.each([
    ["MemoService_ListMemos", "memo_list_memos"],
    ["AttachmentService_GetAttachment", "attachment_get_attachment"],
    ["getUserById", "get_user_by_id"],
    ["issues/create", "issues_create"],
    ["repos/get-content", "repos_get_content"],
    ["listHTTPRoutes", "list_http_routes"],
    ["v2.pets.list", "v2_pets_list"],
    ["Service_Ping", "service_ping"],
    ["", "op_e3b0c442"],
    ["ÜberCool", "uber_cool"],
    ["获取用户", "huo_qu_yong_hu"],
    ["获取订单", "huo_qu_ding_dan"],
    ["удалить", "udalit"],
    ["حذف", "hdhf"],
    ["\u202e\u202d", "op_60a5a68b"],
  ])("%s → %s", (operationId, expected) => {
    expect(toolNameFromOperationId(operationId)).toBe(expected);
  });

  it("derives a name from method and path when there is no operationId", () => {
    expect(toolNameFromRoute("get", "/users/{id}/repos")).toBe("get_users_id_repos");
  });

  it("leaves a long route's inner parameters out of its name, not its action (Bitbucket's pull request routes)", () => {
    const route = "/repositories/{workspace}/{repo_slug}/pullrequests/{pull_request_id}";
    expect(toolNameFromRoute("post", `${route}/merge`)).toBe("post_repositories_pullrequests_merge");
    expect(toolNameFromRoute("post", `${route}/approve`)).toBe("post_repositories_pullrequests_approve");
    expect(toolNameFromRoute("get", `${route}/comments/{comment_id}`)).toBe("get_repositories_pullrequests_comments_comment_id");
    const long = toolNameFromRoute("get", `/${"segment".repeat(12)}/{id}/tail`);
    expect(long).toMatch(/^get_segment[a-z]*_[0-9a-f]{8}$/);
    expect(long.length).toBeLessThanOrEqual(64);
  });

  it("keeps long names within 64 characters, stable and distinct", () => {
    const a = toolNameFromOperationId(`${"VeryLongOperationName".repeat(5)}A`);
    const b = toolNameFromOperationId(`${"VeryLongOperationName".repeat(5)}B`);
    expect(a).toMatch(/^[a-z0-9_]{1,64}$/);
    expect(a).not.toBe(b);
    expect(toolNameFromOperationId(`${"VeryLongOperationName".repeat(5)}A`)).toBe(a);
  });

  it("makes duplicates unique in order", () => {
    expect(uniqueNames(["a", "b", "a", "a_2", "a"])).toEqual(["a", "b", "a_3", "a_2", "a_4"]);
  });
});
