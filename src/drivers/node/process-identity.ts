/**
 * Who a pid is: a pid alone is not an identity (the system hands a dead process's pid to the next
 * one), so on Linux a process is named by its pid, its start time (field 22 of `/proc/<pid>/stat`,
 * in clock ticks since boot) and the boot id (`/proc/sys/kernel/random/boot_id`). A recorded
 * holder is alive only while a process with the same pid, start time and boot runs and is not a
 * zombie. Without `/proc` (macOS, Windows) the identity is the pid and liveness is `kill(pid, 0)`.
 * @module
 */
import { readFile } from 'node:fs/promises';
import process from 'node:process';

/** A process as a lock file records it. */
export interface ProcessIdentity {
  pid: number;
  /** Start time in clock ticks since boot (Linux); absent where `/proc` is not available. */
  start?: number;
  /** The kernel's boot id (Linux); absent where `/proc` is not available. */
  boot?: string;
}

/** State and start time of a pid from `/proc/<pid>/stat`; undefined when there is no such file. */
export async function procStat(pid: number): Promise<{ state: string; start: number } | undefined> {
  let text: string;
  try {
    text = await readFile(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const start = Number(fields[19]);
  if (state === undefined || !Number.isFinite(start)) return undefined;
  return { state, start };
}

async function bootId(): Promise<string | undefined> {
  try {
    return (await readFile('/proc/sys/kernel/random/boot_id', 'utf8')).trim();
  } catch {
    return undefined;
  }
}

/** Whether `/proc` describes processes here (Linux). */
async function hasProc(): Promise<boolean> {
  return (await procStat(process.pid)) !== undefined;
}

/** The identity of a running pid (with start time and boot id where `/proc` tells them). */
export async function identityOf(pid: number): Promise<ProcessIdentity> {
  const stat = await procStat(pid);
  const boot = await bootId();
  const identity: ProcessIdentity = { pid };
  if (stat) identity.start = stat.start;
  if (boot !== undefined) identity.boot = boot;
  return identity;
}

function signalAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}

/**
 * Whether the process a lock file recorded still runs. With `/proc`: false when the pid is gone,
 * is a zombie or dead (`Z`, `X`), started at another time than recorded, or the machine has
 * rebooted since; a record without a start time (written where `/proc` was missing) falls back to
 * the pid. Without `/proc`: `kill(pid, 0)`.
 */
export async function holderAlive(holder: ProcessIdentity): Promise<boolean> {
  if (!(await hasProc())) return signalAlive(holder.pid);
  if (holder.boot !== undefined && holder.boot !== (await bootId())) return false;
  const stat = await procStat(holder.pid);
  // No /proc entry: gone, or hidden from us (hidepid); the signal tells which.
  if (!stat) return signalAlive(holder.pid);
  if (stat.state === 'Z' || stat.state === 'X' || stat.state === 'x') return false;
  return holder.start === undefined ? true : stat.start === holder.start;
}
