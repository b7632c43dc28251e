import { apiParts, partsSentence } from "oapi-mcp-gen-runtime/discovery";
import { describe, expect, it } from "vitest";

describe("the API's parts in the search tool's description", () => {
  it("orders parts by their operations and keeps notes that say something", () => {
    const parts = apiParts([["Droplets"], ["Droplets", "Tags"], ["Regions"], ["Webinars"], ["Droplets"]], {
      Droplets: "A [Droplet](https://www.digitalocean.com/docs/droplets/) is a DigitalOcean virtual machine.",
      Regions: "https://example.com/regions",
      Webinars: "Webinar operations",
      Tags: "<p>Labels for <b>resources</b></p>",
    });
    expect(parts).toEqual([
      { tag: "Droplets", operations: 3, reach: 3, members: [0, 1, 4], note: "A Droplet is a DigitalOcean virtual machine." },
      { tag: "Tags", operations: 1, reach: 1, members: [1], note: "Labels for resources" },
      { tag: "Regions", operations: 1, reach: 1, members: [2], note: "" },
      { tag: "Webinars", operations: 1, reach: 1, members: [3], note: "" },
    ]);
    expect(partsSentence(parts)).toBe(
      'Its parts (pass one as tag to search only there): "Droplets" (A Droplet is a DigitalOcean virtual machine.), "Tags" (Labels for resources), "Regions", "Webinars".',
    );
  });

  it("takes tags that differ only in case as one part, named as most operations spell it (Linode's `account`)", () => {
    const parts = apiParts([["Account"], ["account"], ["Account"], ["Regions"]], { account: "Your account's settings." });
    expect(parts).toEqual([
      { tag: "Account", operations: 3, reach: 3, members: [0, 1, 2], note: "Your account's settings." },
      { tag: "Regions", operations: 1, reach: 1, members: [3], note: "" },
    ]);
  });

  it("puts first the parts whose thing the most paths name, others' paths included", () => {
    const tags = [
      ["Metadata templates"],
      ["Metadata templates"],
      ["Metadata templates"],
      ["Files"],
      ["Comments"],
      ["Tasks"],
      ["Classifications on files"],
    ];
    const paths = [
      "/metadata_templates",
      "/metadata_templates/{id}",
      "/metadata_templates/{id}/schema",
      "/files/{file_id}",
      "/files/{file_id}/comments",
      "/files/{file_id}/tasks",
      "/files/{file_id}/metadata/enterprise/securityClassification",
    ];
    // Classifications on files name classifications, not files.
    expect(apiParts(tags, {}, paths).map((part) => [part.tag, part.reach])).toEqual([
      ["Files", 4],
      ["Metadata templates", 3],
      ["Comments", 1],
      ["Tasks", 1],
      ["Classifications on files", 1],
    ]);
  });

  it("names every part it can within its budget before any note, and says how many it leaves out", () => {
    const tags = Array.from({ length: 400 }, (_, index) => [`Part number ${index} of a very large API`]);
    const notes = Object.fromEntries(tags.map(([tag]) => [tag, `What ${tag} holds, told at some length so that notes run out first.`]));
    const sentence = partsSentence(apiParts(tags, notes as Record<string, string>));
    expect(sentence.length).toBeLessThanOrEqual(3000 + 70);
    expect(sentence).toMatch(/, and \d+ more \(a tag not found is answered with all of them\)\.$/);
    expect(sentence).toContain('"Part number 0 of a very large API", "Part number 1 of a very large API"');
    expect(partsSentence([])).toBe("");
  });

  it("drops notes that only say the tag's name in other words, and cuts long ones at a word", () => {
    const tags = [["Issue worklogs"], ["Issue comments"], ["Users"], ["Projects"], ["Filters"]];
    const parts = apiParts(tags, {
      "Issue worklogs": "This resource represents issue worklogs.",
      "Issue comments": "Endpoints to manage issue comments.",
      Users: "Interact with and view information about users and also the current user of Acme.",
      Projects: "Acme projects.",
      Filters: "Acme filters, saved searches that are shared with other people and that run on a schedule every day.",
    });
    expect(parts.map((part) => part.note)).toEqual([
      "",
      "",
      "View information about users and also the current user of Acme.",
      "",
      "Acme filters, saved searches that are shared with other people and that run on a…",
    ]);
  });

  it("reads a tag named like an object's own property as a tag", () => {
    expect(apiParts([["constructor"], ["__proto__"]], {})).toHaveLength(2);
    expect(apiParts([["toString"]], { valueOf: "x" })[0]?.note).toBe("");
  });
});
