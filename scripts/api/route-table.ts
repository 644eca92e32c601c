// moved: kept until the branches under way are merged

export * from "./contract/build-route-table.ts";
export * from "./runtime/route-table.ts";
