import { describe, expect, it } from "vitest";
import { Doorkeeper } from "../../../../../scripts/hosts/node/server/admission.ts";
import { ResolutionCache } from "../../../../../scripts/hosts/node/server/resolution-cache.ts";

describe("Doorkeeper: a key is cached from its second recent request on", () => {
  it("refuses a key the first time and admits it the second", () => {
    const door = new Doorkeeper(1024);
    expect(door.admit("/v1/software/acme")).toBe(false);
    expect(door.admit("/v1/categories")).toBe(false);
    expect(door.admit("/v1/software/acme")).toBe(true);
    // admitted keys are forgotten: the cache holds them now
    expect(door.admit("/v1/software/acme")).toBe(false);
  });

  it("remembers only the most recent keys, within its byte bound", () => {
    const door = new Doorkeeper(3 * (2 * "key-0".length + 64)); // room for three keys
    for (let i = 0; i < 10; i++) door.admit(`key-${i}`);
    expect(door.size).toBeLessThanOrEqual(3 * (2 * "key-0".length + 64));
    expect(door.admit("key-0"), "seen too long ago").toBe(false);
    expect(door.admit("key-9"), "seen just now").toBe(true);
  });

  it("with no bound at all, admits every key at once", () => {
    expect(new Doorkeeper(0).admit("anything")).toBe(true);
  });
});

describe("ResolutionCache", () => {
  const r = { kind: "file", file: "v1/categories.json", status: 200, success: true } as const;

  it("keeps a target's resolution from its second request on", () => {
    const cache = new ResolutionCache();
    cache.set("/v1/categories", r);
    expect(cache.get("/v1/categories")).toBeUndefined();
    cache.set("/v1/categories", r);
    expect(cache.get("/v1/categories")).toEqual(r);
  });

  it("stays within its bytes however many distinct targets it sees", () => {
    const cache = new ResolutionCache(64 * 1024, 16 * 1024);
    for (let i = 0; i < 5_000; i++) {
      cache.set(`/v1/software/tool-${i}`, r);
      cache.set(`/v1/software/tool-${i}`, r);
    }
    expect(cache.size).toBeLessThanOrEqual(64 * 1024 + 16 * 1024);
    expect(cache.get("/v1/software/tool-4999")).toEqual(r);
    expect(cache.get("/v1/software/tool-0")).toBeUndefined();
  });
});
