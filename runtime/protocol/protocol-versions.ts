/**
 * Protocol versions the stateless fast path answers, as named in `MCP-Protocol-Version`: those the SDK supported when
 * this runtime was written (a test keeps them a subset of the installed SDK's). A request naming any other version
 * goes to the SDK, which accepts it if it knows it and refuses it otherwise, so a newer SDK loses nothing.
 */
export const FAST_PATH_VERSIONS: ReadonlySet<string> = new Set(["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"]);
