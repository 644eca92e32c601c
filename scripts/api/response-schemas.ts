// moved: kept until the branches under way are merged
export * from "./contract/response-schemas.ts";
