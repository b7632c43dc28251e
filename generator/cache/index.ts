/** What a run keeps between runs: rendered modules and compiled code. */

export { compileCacheEnabled, compileCacheFolder, enableCompileCache, isPrivateFolder } from "./compile-cache.js";
export { cachedText, cacheFolder, contentKey, RenderCache } from "./render-cache.js";
