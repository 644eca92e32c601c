// moved: kept until the branches under way are merged
export * from "./contract/error-bodies.ts";
