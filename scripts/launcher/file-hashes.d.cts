import type { BigIntStats } from "node:fs";

/** A signature proving a file unchanged while it stays equal, or undefined when it changed too recently. */
export function signatureOf(stats: BigIntStats, nowMs?: number): string | undefined;

export function sha1(bytes: string | Uint8Array): string;

/** sha1 of a file's bytes ("missing" when unreadable), remembered by its signature. */
export function hashOfFile(path: string): string;

/** Saves the remembered hashes for the next process (best effort). */
export function saveFileHashes(): void;
