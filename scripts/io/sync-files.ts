// moved: kept until the branches under way are merged
export * from "../render/sync-files.ts";
