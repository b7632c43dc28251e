/** The catalogue of loaded APIs: its interface, the in-memory catalogue, and who may read or change it. */

export {
  type ApiListing,
  type Catalogue,
  type CataloguePage,
  type CatalogueQuery,
  type Loader,
  listingOf,
  mayChange,
  notYours,
  type OperationRow,
} from "./catalogue.js";
export { CatalogueIndex } from "./catalogue-index.js";
export {
  API_NAME_PATTERN,
  type CatalogueBudget,
  checkApiName,
  heldBytes,
  MemoryCatalogue,
  noApiHasTag,
  notLoaded,
  roomFailure,
  rowOf,
} from "./memory-catalogue.js";
export { CHANGING_TOOLS, checkMayLoad, loaderOf, mayLoad, refusedForCatalogue, type SearchSignIn, searchSignIn } from "./sign-in.js";
