// The page writer thread when no bundle of page-writer-thread.ts can be made (page-writers.ts): threads do not inherit
// tsx's loader hooks (privatenumber/tsx#354), so register them, then run the TypeScript thread.
import { register } from "tsx/esm/api";

register();
await import("./page-writer-thread.ts");
