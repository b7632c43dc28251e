/** The lexicon a discovery server's search reads: what users may say for a document's words, from WordNet at generation time. */
export { lexiconFor } from "./lexicon.js";
