// Holds idle connections to a host (its own process, its own descriptor limit): connects `count` sockets, sends
// nothing. Prints "held N" once connected, then on each stdin line "open N": how many the host has not closed yet.
import { connect, type Socket } from "node:net";
import { createInterface } from "node:readline";

const [origin, count] = process.argv.slice(2);
const { hostname, port } = new URL(origin!);
const open = new Set<Socket>();
let settled = 0;
const total = Number(count);
const done = () => {
  if (++settled === total) console.log(`held ${open.size}`);
};
// a few at a time: a burst of thousands of SYNs overflows the listen backlog
let started = 0;
function next() {
  if (started >= total) return;
  started++;
  const socket = connect({ host: hostname, port: Number(port) });
  socket.once("connect", () => {
    open.add(socket);
    done();
    next();
  });
  socket.on("error", () => {});
  socket.once("close", () => {
    if (!open.delete(socket)) done();
  });
}
for (let i = 0; i < 500; i++) next();
createInterface({ input: process.stdin }).on("line", () => console.log(`open ${open.size}`));
process.once("SIGTERM", () => process.exit(0));
