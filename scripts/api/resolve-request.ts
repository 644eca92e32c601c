// moved: kept until the branches under way are merged
export * from "./runtime/resolve-request.ts";
