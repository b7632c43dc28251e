import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { normalizeDocument, parseDocumentText } from "../../../openapi/document/index.js";
import { CatalogueIndex } from "../../../search/catalogue/index.js";
import { LoadedApi } from "../../../search/documents/index.js";
import { GALAXY, MUSEUM } from "../../helpers/search-server.js";

async function load(name: string, path: string): Promise<LoadedApi> {
  const { document, sourceVersion } = await normalizeDocument(parseDocumentText(await readFile(path, "utf8"), "yaml"), name);
  return new LoadedApi(name, document, sourceVersion, path, "", []);
}

describe("the catalogue index", () => {
  it("finds the current version of each API, and reloading again and again keeps its id table bounded", async () => {
    const museum = await load("museum", MUSEUM);
    const galaxy = await load("galaxy", GALAXY);
    const index = new CatalogueIndex([museum, galaxy], 20);
    expect((await index.search("buy museum tickets"))[0]).toMatchObject({ api: museum, record: { operationId: "buyMuseumTickets" } });
    for (let round = 0; round < 40; round++) index.put(round % 2 === 0 ? museum : galaxy);
    const hits = await index.search("delete a planet");
    expect(hits[0]).toMatchObject({ api: galaxy, record: { operationId: "deletePlanet" } });
    expect(hits.filter((hit) => hit.record.operationId === "deletePlanet")).toHaveLength(1);
    const live = museum.operations.length + galaxy.operations.length;
    expect(index.idsInUse).toBeLessThanOrEqual(live + 20 + Math.max(museum.operations.length, galaxy.operations.length));
  });
});
