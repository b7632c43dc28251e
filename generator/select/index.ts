/** Which operations a run serves: the config's filters, the first selection `init` proposes, and every config problem at once. */

export { firstSelection } from "./first-selection.js";
export { selectOperations } from "./select.js";
