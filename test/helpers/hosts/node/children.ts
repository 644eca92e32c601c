// Child processes for the hostile-input tests: each with its own descriptor limit (`ulimit -n`), read line by line.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { repoRoot } from "../../fs/dirs.ts";

export interface Child {
  process: ChildProcess;
  /** resolves with the first stdout line (after those already read) matching `pattern` */
  line(pattern: RegExp, ms?: number): Promise<RegExpExecArray>;
  write(text: string): void;
  stop(): Promise<void>;
}

/**
 * `node scripts/launcher/launch.cjs <script> …args` (the script from its cached bundle, as the commands run; through tsx
 * each start cost ~1 s more CPU) under `ulimit -n <nofile>` (or as high as the hard limit allows).
 */
export function spawnWithLimit(script: string, args: string[], nofile: number): Child {
  const quoted = [script, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  const child = spawn(
    "sh",
    [
      "-c",
      `ulimit -n ${nofile} 2>/dev/null || ulimit -n "$(ulimit -Hn)"; exec "${process.execPath}" scripts/launcher/launch.cjs ${quoted}`,
    ],
    {
      cwd: repoRoot,
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  const lines: string[] = [];
  let buffered = "";
  const waiters = new Set<() => void>();
  child.stdout!.on("data", (c: Buffer) => {
    buffered += c;
    const parts = buffered.split("\n");
    buffered = parts.pop()!;
    lines.push(...parts);
    for (const w of waiters) w();
  });
  return {
    process: child,
    line(pattern, ms = 30_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${script}: no line matching ${pattern} within ${ms} ms`));
        }, ms);
        const check = () => {
          while (lines.length > 0) {
            const match = pattern.exec(lines.shift()!);
            if (match) {
              clearTimeout(timer);
              waiters.delete(check);
              return resolve(match);
            }
          }
        };
        waiters.add(check);
        check();
      });
    },
    write: (text) => child.stdin!.write(text),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    },
  };
}
